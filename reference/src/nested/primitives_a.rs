//! The λA primitives (App. C, Ch. 4) as induced reduction rules: for each `!`
//! and each constructor pattern a congruence reducing that position to WHNF,
//! then the clause. Type-indexed primitives dispatch on the association `A[σ]`
//! of their index `σ`, i.e. on the outermost constructor of the λC type `σ`
//! (modulo `≡`, which is trivial on associations derived from λC types).
//!
//! Additions beyond App. C, each an `Extension` arm (SPEC_NOTES L05-12..14,
//! L05-23, L05-24: a primitive never forces the elements of an empty result):
//! the μ-cases of every type-indexed primitive (`in↑`/`out↑` wrap the unfolded
//! representation), `nilP` at `τ^↑`, `combineP`, `expandP`, `repeatP`,
//! `takeP`, `dropP` via `gatherP`, bounds checks (⊥ when violated), and the
//! lifted primitives: `lenP↑`, `mapP↑`, `case↑` and `cappP↑` as in Ch. 4,
//! lifted arithmetic, `not↑`, `boolToSum↑`, `in↑`/`out↑`; every other `c↑` is the
//! generic specification `c↑ xs = attachP⟨n, [:c (xs !: 0), …, c (xs !: n-1):]⟩`
//! (L2400: `p↑ xs ≅ mapP⟨p, xs⟩`).

use super::constants::{signature, Calculus, Const, Prim};
use super::flat_types::flat;
use super::lambda_a::{AuxPrim, ConstA, ExprA, Kernel, TermA};
use super::machine::{admit_elements, Decision};
use super::reduce_a::is_value;
use super::types::Type;
use crate::derivation::fire_rule;
use std::rc::Rc;

type Forced<T> = Result<T, Decision<ExprA>>;

fn force(argument: &ExprA, path: &[usize]) -> Forced<ExprA> {
    let sub = argument
        .at_path(path)
        .ok_or_else(|| Decision::Bottom("primitive argument of the wrong shape".into()))?;
    if is_value(&sub) {
        Ok(sub)
    } else {
        Err(Decision::Congruence(path.to_vec()))
    }
}

fn force_tuple(argument: &ExprA, path: &[usize]) -> Forced<(ExprA, ExprA)> {
    match force(argument, path)?.term() {
        TermA::Tuple(a, b) => Ok((a.clone(), b.clone())),
        _ => bottom("expected a tuple"),
    }
}

fn force_int(argument: &ExprA, path: &[usize]) -> Forced<i64> {
    match force(argument, path)?.term() {
        TermA::Int(i) => Ok(*i),
        _ => bottom("expected an integer"),
    }
}

fn force_bool(argument: &ExprA, path: &[usize]) -> Forced<bool> {
    match force(argument, path)?.term() {
        TermA::Bool(b) => Ok(*b),
        _ => bottom("expected a boolean"),
    }
}

fn force_ints(argument: &ExprA, path: &[usize]) -> Forced<Rc<[i64]>> {
    match force(argument, path)?.term() {
        TermA::ArrInt(values) => Ok(values.clone()),
        _ => bottom("expected an unboxed integer array"),
    }
}

fn force_bools(argument: &ExprA, path: &[usize]) -> Forced<Rc<[bool]>> {
    match force(argument, path)?.term() {
        TermA::ArrBool(values) => Ok(values.clone()),
        _ => bottom("expected an unboxed boolean array"),
    }
}

/// The unboxed data of an array of length `n` of `Int`s or `Bool`s: the empty
/// literal when `n = 0`, never forcing `data` then. Law attach/nil
/// (`attachP⟨0, x⟩ ≅ nilP⟨⟩` for every `x`, Fig. 6.1) requires that no primitive
/// observe the data of an empty array (SPEC_NOTES L05-15).
fn data_of(ty: &Type, n: i64, data: ExprA) -> ExprA {
    if n != 0 {
        data
    } else if *ty == Type::Bool {
        ExprA::arr_bool(Vec::new())
    } else {
        ExprA::arr_int(Vec::new())
    }
}

fn bottom<T>(reason: impl Into<String>) -> Forced<T> {
    Err(Decision::Bottom(reason.into()))
}

fn contract(e: ExprA) -> Forced<Decision<ExprA>> {
    Ok(Decision::Contract(e))
}

// ---- term builders --------------------------------------------------------

fn pair(a: ExprA, b: ExprA) -> ExprA {
    ExprA::tuple(a, b)
}
fn p1(e: &ExprA) -> ExprA {
    ExprA::proj(e.clone(), 1)
}
fn p2(e: &ExprA) -> ExprA {
    ExprA::proj(e.clone(), 2)
}
fn int(i: i64) -> ExprA {
    ExprA::int(i)
}
fn v(prim: Prim, ty: &Type, argument: ExprA) -> ExprA {
    ExprA::prim(prim, std::slice::from_ref(ty), argument)
}
fn len(ty: &Type, xs: &ExprA) -> ExprA {
    v(Prim::LenP, ty, xs.clone())
}
fn nil(ty: &Type) -> ExprA {
    v(Prim::NilP, ty, ExprA::unit())
}
fn rep(ty: &Type, n: ExprA, x: ExprA) -> ExprA {
    v(Prim::RepP, ty, pair(n, x))
}
fn concat(ty: &Type, a: ExprA, b: ExprA) -> ExprA {
    v(Prim::ConcatP, ty, pair(a, b))
}
fn index(ty: &Type, xs: ExprA, i: ExprA) -> ExprA {
    v(Prim::IndexP, ty, pair(xs, i))
}
fn pack(ty: &Type, flags: ExprA, xs: ExprA) -> ExprA {
    v(Prim::PackP, ty, pair(flags, xs))
}
fn combine(ty: &Type, flags: ExprA, xs: ExprA, ys: ExprA) -> ExprA {
    v(Prim::CombineP, ty, pair(flags, pair(xs, ys)))
}
fn aux(prim: AuxPrim, ty: &Type, argument: ExprA) -> ExprA {
    ExprA::aux(prim, std::slice::from_ref(ty), argument)
}
fn attach(ty: &Type, n: ExprA, xs: ExprA) -> ExprA {
    aux(AuxPrim::AttachP, ty, pair(n, xs))
}
fn gather(ty: &Type, indices: ExprA, xs: ExprA) -> ExprA {
    aux(AuxPrim::GatherP, ty, pair(indices, xs))
}
fn expand(ty: &Type, counts: ExprA, xs: ExprA) -> ExprA {
    aux(AuxPrim::ExpandP, ty, pair(counts, xs))
}
fn kernel(k: Kernel, argument: ExprA) -> ExprA {
    ExprA::kernel(k, argument)
}
fn lifted(prim: Prim, type_args: &[Type], argument: ExprA) -> ExprA {
    ExprA::app(
        ExprA::constant(ConstA::Lifted(Const {
            prim,
            type_args: type_args.to_vec(),
        })),
        argument,
    )
}
fn not_lifted(flags: ExprA) -> ExprA {
    lifted(Prim::Not, &[], flags)
}
/// `in↑_⟨μ⟩ e`.
fn in_lifted(mu: &Type, e: ExprA) -> ExprA {
    lifted(Prim::In, std::slice::from_ref(mu), e)
}
fn out_lifted(mu: &Type, e: ExprA) -> ExprA {
    lifted(Prim::Out, std::slice::from_ref(mu), e)
}
fn array_closure(code: ExprA, types: Rc<[Type; 3]>, environment: ExprA) -> ExprA {
    ExprA::new(TermA::ArrClosure(code, types, environment))
}
fn sum_constructor(right: bool, left_type: &Type, right_type: &Type, payload: ExprA) -> ExprA {
    ExprA::prim(
        if right { Prim::Right } else { Prim::Left },
        &[left_type.clone(), right_type.clone()],
        payload,
    )
}

/// A value `c e` with `c` the λA constant `prim`/`lifted` (constructor test).
fn constructor_payload(value: &ExprA, wanted: &dyn Fn(&ConstA) -> bool) -> Option<ExprA> {
    match value.term() {
        TermA::App(function, payload) => match function.term() {
            TermA::Const(c) if wanted(c) => Some(payload.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn is_vectorised(prim: Prim) -> impl Fn(&ConstA) -> bool {
    move |c| matches!(c, ConstA::Vectorised(k) if k.prim == prim)
}
fn is_lifted(prim: Prim) -> impl Fn(&ConstA) -> bool {
    move |c| matches!(c, ConstA::Lifted(k) if k.prim == prim)
}

/// The value `in↑ v` at `path`: returns `v`.
fn force_in_lifted(argument: &ExprA, path: &[usize]) -> Forced<ExprA> {
    let value = force(argument, path)?;
    constructor_payload(&value, &is_lifted(Prim::In)).map_or_else(|| bottom("expected `in↑ v`"), Ok)
}

/// The array closure at `path`.
fn force_array_closure(argument: &ExprA, path: &[usize]) -> Forced<(ExprA, Rc<[Type; 3]>, ExprA)> {
    match force(argument, path)?.term() {
        TermA::ArrClosure(code, types, environment) => {
            Ok((code.clone(), types.clone(), environment.clone()))
        }
        _ => bottom("expected an array closure"),
    }
}

fn in_bounds(i: i64, n: i64) -> Forced<()> {
    if 0 <= i && i < n {
        Ok(())
    } else {
        bottom(format!("index {i} out of bounds (length {n})"))
    }
}

/// The induced rule for `c e` (paths relative to `e`).
pub fn decide(c: &ConstA, argument: &ExprA) -> Decision<ExprA> {
    let result = match c {
        ConstA::Vectorised(c) => vectorised(c, argument),
        ConstA::Lifted(c) => lifted_primitive(c, argument),
        ConstA::Aux(prim, args) => auxiliary(*prim, args, argument),
        ConstA::Kernel(k) => unboxed_kernel(*k, argument),
        ConstA::LiftedByIndexing(c) => return lifted_by_indexing(c, argument),
    };
    match result {
        Ok(decision) | Err(decision) => decision,
    }
}

fn arithmetic(prim: Prim, a: i64, b: i64) -> Option<ExprA> {
    Some(match prim {
        Prim::Add => int(a.wrapping_add(b)),
        Prim::Sub => int(a.wrapping_sub(b)),
        Prim::Mul => int(a.wrapping_mul(b)),
        Prim::Div if b != 0 => int(a.wrapping_div(b)),
        Prim::Mod if b != 0 => int(a.wrapping_rem(b)),
        Prim::Eq => ExprA::boolean(a == b),
        Prim::Lt => ExprA::boolean(a < b),
        Prim::Le => ExprA::boolean(a <= b),
        _ => return None,
    })
}

// ---- V_C[c]: the App C primitives ------------------------------------------

fn vectorised(c: &Const, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let t = |i: usize| c.type_args[i].clone();
    match c.prim {
        // L05 AppC arithmetic
        Prim::Add
        | Prim::Sub
        | Prim::Mul
        | Prim::Div
        | Prim::Mod
        | Prim::Eq
        | Prim::Lt
        | Prim::Le => {
            fire_rule("L05 AppC arithmetic");
            force_tuple(argument, &[])?;
            let a = force_int(argument, &[0])?;
            let b = force_int(argument, &[1])?;
            match arithmetic(c.prim, a, b) {
                Some(result) => contract(result),
                None => bottom("division by zero"),
            }
        }
        // L05 AppC not
        Prim::Not => {
            fire_rule("L05 AppC not");
            contract(ExprA::boolean(!force_bool(argument, &[])?))
        }
        // Extension: L05 AppC boolToSum
        Prim::BoolToSum => {
            fire_rule("L05 AppC boolToSum");
            let b = force_bool(argument, &[])?;
            contract(sum_constructor(b, &Type::Unit, &Type::Unit, ExprA::unit()))
        }
        // L05 AppC Left-Right
        Prim::Left | Prim::Right => {
            fire_rule("L05 AppC Left-Right");
            Ok(Decision::Value)
        }
        // L05 AppC case
        Prim::Case => {
            fire_rule("L05 AppC case");
            force_tuple(argument, &[])?;
            let scrutinee = force(argument, &[1])?;
            let (f, g) = force_tuple(argument, &[0])?;
            if let Some(x) = constructor_payload(&scrutinee, &is_vectorised(Prim::Left)) {
                contract(ExprA::new(TermA::CloApp(f, x)))
            } else if let Some(y) = constructor_payload(&scrutinee, &is_vectorised(Prim::Right)) {
                contract(ExprA::new(TermA::CloApp(g, y)))
            } else {
                bottom("case of a non-sum")
            }
        }
        // L05 AppC in
        Prim::In => {
            fire_rule("L05 AppC in");
            force(argument, &[])?;
            Ok(Decision::Value)
        }
        // L05 AppC out
        Prim::Out => {
            fire_rule("L05 AppC out");
            let value = force(argument, &[])?;
            constructor_payload(&value, &is_vectorised(Prim::In))
                .map_or_else(|| bottom("out of a value that is not `in v`"), contract)
        }
        // L05 AppC seq
        Prim::Seq => {
            fire_rule("L05 AppC seq");
            let (_, y) = force_tuple(argument, &[])?;
            force(argument, &[0])?;
            contract(y)
        }
        // Extension: L05 AppC bottom
        Prim::Bottom => {
            fire_rule("L05 AppC bottom");
            bottom("bottom")
        }
        // SPEC_NOTES L05-21: no λA `▷`; what needs it is unknown, not ⊥.
        Prim::Impose => Err(Decision::Impose),
        Prim::LenP => length(&t(0), argument),
        Prim::NilP => empty(&t(0)),
        Prim::RepP => replicate(&t(0), argument),
        Prim::ConcatP => concatenate(&t(0), argument),
        Prim::IndexP => index_array(&t(0), argument),
        Prim::PackP => pack_array(&t(0), argument),
        Prim::CombineP => combine_arrays(&t(0), argument),
        // L05 AppC zipP
        Prim::ZipP => {
            fire_rule("L05 AppC zipP");
            let (xs, ys) = force_tuple(argument, &[])?;
            let (a, b) = (t(0), t(1));
            let length = len(&a, &xs);
            contract(attach(
                &Type::prod(a.clone(), b.clone()),
                kernel(Kernel::SameLength, pair(length.clone(), len(&b, &ys))),
                pair(length, pair(xs, ys)),
            ))
        }
        // L05 AppC mapP
        Prim::MapP => {
            fire_rule("L05 AppC mapP");
            let (closure, _) = force_tuple(argument, &[])?;
            let xs = force(argument, &[1])?;
            let (a, b) = (t(0), t(1));
            contract(ExprA::new(TermA::ArrCloApp(
                rep(&Type::clo(a.clone(), b), len(&a, &xs), closure),
                xs,
            )))
        }
        // L05 AppC sumP
        Prim::SumP => {
            fire_rule("L05 AppC sumP");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            contract(kernel(Kernel::SumInt, data_of(&Type::Int, n, p2(argument))))
        }
        // L05 AppC truesP-falsesP
        Prim::TruesP | Prim::FalsesP => {
            fire_rule("L05 AppC truesP-falsesP");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let k = if c.prim == Prim::TruesP {
                Kernel::CountTrue
            } else {
                Kernel::CountFalse
            };
            contract(kernel(k, data_of(&Type::Bool, n, p2(argument))))
        }
        // Extension: L05 AppC takeP
        Prim::TakeP => {
            fire_rule("L05 AppC takeP");
            let (_, xs) = force_tuple(argument, &[])?;
            let n_value = force_int(argument, &[0])?;
            let indices = pair(
                int(n_value),
                kernel(
                    Kernel::RangeIndices,
                    ExprA::triple(int(0), int(n_value), len(&t(0), &xs)),
                ),
            );
            contract(gather(&t(0), indices, xs))
        }
        // Extension: L05 AppC dropP
        Prim::DropP => {
            fire_rule("L05 AppC dropP");
            let (_, xs) = force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let length = len(&t(0), &xs);
            let indices = pair(
                ExprA::prim(Prim::Sub, &[], pair(length.clone(), int(n))),
                kernel(
                    Kernel::RangeIndices,
                    ExprA::triple(int(n), length.clone(), length),
                ),
            );
            contract(gather(&t(0), indices, xs))
        }
    }
}

/// `lenP_⟨τ⟩ :: τ.2 → Int`.
fn length(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let xs = force(argument, &[])?;
    match ty {
        // L05 AppC lenP-Flat
        Type::Unit | Type::Int | Type::Bool | Type::Prod(..) | Type::Fun(..) => {
            fire_rule("L05 AppC lenP-Flat");
            force_tuple(argument, &[])?;
            contract(p1(&xs))
        }
        // L05 AppC lenP-Sum
        Type::Sum(..) => {
            fire_rule("L05 AppC lenP-Sum");
            contract(len(&Type::Bool, &p1(&xs)))
        }
        // L05 AppC lenP-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC lenP-Clo");
            let (_, types, environment) = force_array_closure(argument, &[])?;
            contract(len(&types[0], &environment))
        }
        // L05 AppC lenP-Array
        Type::Array(_) => {
            fire_rule("L05 AppC lenP-Array");
            contract(len(&Type::Int, &p1(&xs)))
        }
        // Extension: L05 AppC lenP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC lenP-Mu");
            let inner = force_in_lifted(argument, &[])?;
            contract(len(&unfold(ty), &inner))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

fn unfold(ty: &Type) -> Type {
    ty.unfold().unwrap_or(Type::Unit)
}

/// `nilP_⟨τ⟩ :: ⟨⟩ → τ.2`.
fn empty(ty: &Type) -> Forced<Decision<ExprA>> {
    match ty {
        // L05 AppC nilP-Unit
        Type::Unit => {
            fire_rule("L05 AppC nilP-Unit");
            contract(pair(int(0), ExprA::unit()))
        }
        // L05 AppC nilP-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC nilP-Int-Bool");
            let data = if *ty == Type::Int {
                ExprA::arr_int(Vec::new())
            } else {
                ExprA::arr_bool(Vec::new())
            };
            contract(pair(int(0), data))
        }
        // L05 AppC nilP-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC nilP-Prod");
            contract(pair(int(0), pair(nil(a), nil(b))))
        }
        // L05 AppC nilP-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC nilP-Sum");
            contract(pair(nil(&Type::Bool), pair(nil(a), nil(b))))
        }
        // L05 AppC nilP-Fun
        Type::Fun(a, b) => {
            fire_rule("L05 AppC nilP-Fun");
            let undefined = ExprA::lam(flat(a), v(Prim::Bottom, b, ExprA::unit()));
            let empty_lifted = ExprA::lam(super::flat_types::flat_array(a), nil(b));
            contract(pair(int(0), pair(undefined, empty_lifted)))
        }
        // L05 AppC nilP-Clo
        Type::Clo(a, b) => {
            fire_rule("L05 AppC nilP-Clo");
            let code_type = Type::fun(Type::prod(Type::Unit, (**a).clone()), (**b).clone());
            contract(array_closure(
                p2(&nil(&code_type)),
                Rc::new([Type::Unit, (**a).clone(), (**b).clone()]),
                nil(&Type::Unit),
            ))
        }
        // Extension: L05 AppC nilP-Array
        Type::Array(a) => {
            fire_rule("L05 AppC nilP-Array");
            contract(pair(nil(&Type::Int), nil(a)))
        }
        // Extension: L05 AppC nilP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC nilP-Mu");
            contract(in_lifted(ty, nil(&unfold(ty))))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `repP_⟨τ⟩ :: Int × τ.1 → τ.2`.
fn replicate(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (_, x) = force_tuple(argument, &[])?;
    let n = force_int(argument, &[0])?;
    if n < 0 {
        return bottom("repP with a negative length");
    }
    if n == 0 {
        // L05 AppC repP-Zero
        fire_rule("L05 AppC repP-Zero");
        return contract(nil(ty));
    }
    match ty {
        // L05 AppC repP-Unit-Fun
        Type::Unit | Type::Fun(..) => {
            fire_rule("L05 AppC repP-Unit-Fun");
            contract(pair(int(n), x))
        }
        // L05 AppC repP-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC repP-Int-Bool");
            let k = if *ty == Type::Int {
                Kernel::RepInt
            } else {
                Kernel::RepBool
            };
            contract(pair(int(n), kernel(k, pair(int(n), x))))
        }
        // L05 AppC repP-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC repP-Prod");
            contract(pair(
                int(n),
                pair(rep(a, int(n), p1(&x)), rep(b, int(n), p2(&x))),
            ))
        }
        // L05 AppC repP-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC repP-Sum");
            let args = [(**a).clone(), (**b).clone()];
            contract(pair(
                rep(
                    &Type::Bool,
                    int(n),
                    ExprA::aux(AuxPrim::IsRight, &args, x.clone()),
                ),
                ExprA::aux(AuxPrim::RepSumParts, &args, pair(int(n), x)),
            ))
        }
        // L05 AppC repP-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC repP-Clo");
            match force(argument, &[1])?.term() {
                TermA::Closure(code, types, environment) => contract(array_closure(
                    code.clone(),
                    types.clone(),
                    rep(&types[0], int(n), environment.clone()),
                )),
                _ => bottom("repP of a non-closure at a closure type"),
            }
        }
        // L05 AppC repP-Array
        Type::Array(a) => {
            fire_rule("L05 AppC repP-Array");
            contract(pair(
                rep(&Type::Int, int(n), len(a, &x)),
                aux(AuxPrim::RepeatP, a, pair(int(n), x)),
            ))
        }
        // Extension: L05 AppC repP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC repP-Mu");
            contract(in_lifted(ty, rep(&unfold(ty), int(n), v(Prim::Out, ty, x))))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `(++)_⟨τ⟩ :: τ.2 × τ.2 → τ.2`.
fn concatenate(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (xs, ys) = force_tuple(argument, &[])?;
    match ty {
        // L05 AppC concat-Unit
        Type::Unit => {
            fire_rule("L05 AppC concat-Unit");
            let (_, x) = force_tuple(argument, &[0])?;
            let (_, y) = force_tuple(argument, &[1])?;
            let m = force_int(argument, &[0, 0])?;
            let n = force_int(argument, &[1, 0])?;
            let payload = match (m, n) {
                (0, _) => y,
                (_, 0) => x,
                _ => ExprA::prim(Prim::Seq, &[Type::Unit, Type::Unit], pair(x, y)),
            };
            contract(pair(int(m.wrapping_add(n)), payload))
        }
        // L05 AppC concat-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC concat-Int-Bool");
            let (_, is) = force_tuple(argument, &[0])?;
            let (_, js) = force_tuple(argument, &[1])?;
            let m = force_int(argument, &[0, 0])?;
            let n = force_int(argument, &[1, 0])?;
            let k = if *ty == Type::Int {
                Kernel::ConcatInt
            } else {
                Kernel::ConcatBool
            };
            contract(pair(
                int(m.wrapping_add(n)),
                kernel(k, pair(data_of(ty, m, is), data_of(ty, n, js))),
            ))
        }
        // L05 AppC concat-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC concat-Prod");
            let (_, ps) = force_tuple(argument, &[0])?;
            let (_, qs) = force_tuple(argument, &[1])?;
            let m = force_int(argument, &[0, 0])?;
            let n = force_int(argument, &[1, 0])?;
            contract(pair(
                int(m.wrapping_add(n)),
                pair(concat(a, p1(&ps), p1(&qs)), concat(b, p2(&ps), p2(&qs))),
            ))
        }
        // L05 AppC concat-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC concat-Sum");
            let (bs, ps) = force_tuple(argument, &[0])?;
            let (cs, qs) = force_tuple(argument, &[1])?;
            force(argument, &[0, 0])?;
            force(argument, &[1, 0])?;
            contract(pair(
                concat(&Type::Bool, bs, cs),
                pair(concat(a, p1(&ps), p1(&qs)), concat(b, p2(&ps), p2(&qs))),
            ))
        }
        // L05 AppC concat-Fun
        Type::Fun(..) => {
            fire_rule("L05 AppC concat-Fun");
            bottom("function arrays cannot be concatenated")
        }
        // L05 AppC concat-Clo
        Type::Clo(a, b) => {
            fire_rule("L05 AppC concat-Clo");
            force(argument, &[0])?;
            force(argument, &[1])?;
            contract(choice_closure(
                a,
                b,
                selector_of_lengths(ty, &xs, &ys),
                xs,
                ys,
            ))
        }
        // L05 AppC concat-Array
        Type::Array(a) => {
            fire_rule("L05 AppC concat-Array");
            let (ss, data_x) = force_tuple(argument, &[0])?;
            let (ts, data_y) = force_tuple(argument, &[1])?;
            force(argument, &[0, 0])?;
            force(argument, &[1, 0])?;
            // Extension (SPEC_NOTES L05-23, law attach/nil at nested types):
            // an operand without rows is `nilP`, whatever its data, so its
            // data is never forced: `[] ++ ys = ys`, `xs ++ [] = xs`.
            if force_int(argument, &[0, 0, 0])? == 0 {
                return contract(ys);
            }
            if force_int(argument, &[1, 0, 0])? == 0 {
                return contract(xs);
            }
            contract(pair(concat(&Type::Int, ss, ts), concat(a, data_x, data_y)))
        }
        // Extension: L05 AppC concat-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC concat-Mu");
            contract(in_lifted(
                ty,
                concat(&unfold(ty), out_lifted(ty, xs), out_lifted(ty, ys)),
            ))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `repP_⟨Bool_⟩⟨lenP c, False⟩ ++ repP_⟨Bool_⟩⟨lenP d, True⟩`.
fn selector_of_lengths(ty: &Type, c: &ExprA, d: &ExprA) -> ExprA {
    concat(
        &Type::Bool,
        rep(&Type::Bool, len(ty, c), ExprA::boolean(false)),
        rep(&Type::Bool, len(ty, d), ExprA::boolean(true)),
    )
}

/// `⟨⟨| ⟨cappP, cappP↑⟩, (τ1⇒τ2) +_ (τ1⇒τ2), τ1, τ2, ⟨sel, ⟨c, d⟩⟩ |⟩⟩` (§4.4).
fn choice_closure(a: &Type, b: &Type, selector: ExprA, c: ExprA, d: ExprA) -> ExprA {
    let closure = Type::clo(a.clone(), b.clone());
    let args = [a.clone(), b.clone()];
    array_closure(
        pair(
            ExprA::constant(ConstA::Aux(AuxPrim::CappP, args.to_vec())),
            ExprA::constant(ConstA::Aux(AuxPrim::CappPLifted, args.to_vec())),
        ),
        Rc::new([Type::sum(closure.clone(), closure), a.clone(), b.clone()]),
        pair(selector, pair(c, d)),
    )
}

/// `(!:)_⟨τ⟩ :: τ.2 × Int → τ.1`.
fn index_array(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (xs, _) = force_tuple(argument, &[])?;
    let i = force_int(argument, &[1])?;
    match ty {
        // L05 AppC index-Unit-Fun
        Type::Unit | Type::Fun(..) => {
            fire_rule("L05 AppC index-Unit-Fun");
            let (_, payload) = force_tuple(argument, &[0])?;
            in_bounds(i, force_int(argument, &[0, 0])?)?;
            contract(payload)
        }
        // L05 AppC index-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC index-Int-Bool");
            let (_, data) = force_tuple(argument, &[0])?;
            in_bounds(i, force_int(argument, &[0, 0])?)?;
            let k = if *ty == Type::Int {
                Kernel::IndexInt
            } else {
                Kernel::IndexBool
            };
            contract(kernel(k, pair(data, int(i))))
        }
        // L05 AppC index-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC index-Prod");
            let (_, ps) = force_tuple(argument, &[0])?;
            in_bounds(i, force_int(argument, &[0, 0])?)?;
            contract(pair(index(a, p1(&ps), int(i)), index(b, p2(&ps), int(i))))
        }
        // L05 AppC index-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC index-Sum");
            let (_, ps) = force_tuple(argument, &[0])?;
            force_tuple(argument, &[0, 0])?;
            in_bounds(i, force_int(argument, &[0, 0, 0])?)?;
            let flags = force_bools(argument, &[0, 0, 1])?;
            let Some(&flag) = flags.get(i as usize) else {
                return bottom("selector shorter than its length");
            };
            let rank = flags[..i as usize].iter().filter(|f| **f == flag).count() as i64;
            let payload = if flag {
                index(b, p2(&ps), int(rank))
            } else {
                index(a, p1(&ps), int(rank))
            };
            contract(sum_constructor(flag, a, b, payload))
        }
        // L05 AppC index-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC index-Clo");
            let (code, types, environments) = force_array_closure(argument, &[0])?;
            contract(ExprA::new(TermA::Closure(
                code,
                types.clone(),
                index(&types[0], environments, int(i)),
            )))
        }
        // L05 AppC index-Array
        Type::Array(a) => {
            fire_rule("L05 AppC index-Array");
            let (segments, data) = force_tuple(argument, &[0])?;
            let n = index(&Type::Int, segments.clone(), int(i));
            let offset = v(
                Prim::SumP,
                &Type::Int,
                v(Prim::TakeP, &Type::Int, pair(int(i), segments)),
            );
            let offset = ExprA::app(
                ExprA::constant(ConstA::Vectorised(Const {
                    prim: Prim::SumP,
                    type_args: Vec::new(),
                })),
                match offset.term() {
                    TermA::App(_, inner) => inner.clone(),
                    _ => offset,
                },
            );
            let chunk = v(
                Prim::TakeP,
                a,
                pair(n.clone(), v(Prim::DropP, a, pair(offset, data))),
            );
            contract(attach(a, n, chunk))
        }
        // Extension: L05 AppC index-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC index-Mu");
            contract(v(
                Prim::In,
                ty,
                index(&unfold(ty), out_lifted(ty, xs), int(i)),
            ))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `packP_⟨τ⟩ :: Bool_.2 × τ.2 → τ.2`.
fn pack_array(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (flags, xs) = force_tuple(argument, &[])?;
    force_tuple(argument, &[0])?;
    force_int(argument, &[0, 0])?;
    let bits = force_bools(argument, &[0, 1])?;
    let count = bits.iter().filter(|b| **b).count() as i64;
    if count == 0 {
        // Extension: L05 AppC packP-None
        // (SPEC_NOTES L05-24, law attach/nil: no flag is set, so the result
        // has no elements and is `nilP` whatever the elements were; they are
        // never forced.)
        fire_rule("L05 AppC packP-None");
        return contract(nil(ty));
    }
    let trues = int(count);
    match ty {
        // L05 AppC packP-Unit-Fun
        Type::Unit | Type::Fun(..) => {
            fire_rule("L05 AppC packP-Unit-Fun");
            force_tuple(argument, &[1])?;
            contract(pair(trues, p2(&xs)))
        }
        // L05 AppC packP-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC packP-Int-Bool");
            force_tuple(argument, &[1])?;
            let k = if *ty == Type::Int {
                Kernel::PackInt
            } else {
                Kernel::PackBool
            };
            contract(pair(trues, kernel(k, pair(p2(&flags), p2(&xs)))))
        }
        // L05 AppC packP-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC packP-Prod");
            let (_, ps) = force_tuple(argument, &[1])?;
            contract(pair(
                trues,
                pair(pack(a, flags.clone(), p1(&ps)), pack(b, flags, p2(&ps))),
            ))
        }
        // L05 AppC packP-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC packP-Sum");
            let (cs, ps) = force_tuple(argument, &[1])?;
            let ds = pack(&Type::Bool, not_lifted(cs.clone()), flags.clone());
            let es = pack(&Type::Bool, cs.clone(), flags.clone());
            contract(pair(
                pack(&Type::Bool, flags, cs),
                pair(pack(a, ds, p1(&ps)), pack(b, es, p2(&ps))),
            ))
        }
        // L05 AppC packP-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC packP-Clo");
            let (code, types, environments) = force_array_closure(argument, &[1])?;
            let packed = pack(&types[0], flags, environments);
            contract(array_closure(code, types, packed))
        }
        // L05 AppC packP-Array
        Type::Array(a) => {
            fire_rule("L05 AppC packP-Array");
            let (segments, data) = force_tuple(argument, &[1])?;
            let element_flags = expand(&Type::Bool, segments.clone(), flags.clone());
            contract(pair(
                pack(&Type::Int, flags, segments),
                pack(a, element_flags, data),
            ))
        }
        // Extension: L05 AppC packP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC packP-Mu");
            contract(in_lifted(ty, pack(&unfold(ty), flags, out_lifted(ty, xs))))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `combineP_⟨τ⟩ :: Bool_.2 × (τ.2 × τ.2) → τ.2` (not in App. C; §4.4 gives the
/// closure case).
fn combine_arrays(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (selector, _) = force_tuple(argument, &[])?;
    force_tuple(argument, &[0])?;
    let n = force_int(argument, &[0, 0])?;
    let bits = force_bools(argument, &[0, 1])?;
    let falses = bits.iter().filter(|b| !**b).count() as i64;
    let trues = bits.len() as i64 - falses;
    let (xs, ys) = force_tuple(argument, &[1])?;
    let check_lengths = |argument: &ExprA| -> Forced<()> {
        let m1 = force_int(argument, &[1, 0, 0])?;
        let m2 = force_int(argument, &[1, 1, 0])?;
        if m1 == falses && m2 == trues {
            Ok(())
        } else {
            bottom("combineP: the flags do not match the array lengths")
        }
    };
    match ty {
        // Extension: L05 AppC combineP-Unit
        Type::Unit => {
            fire_rule("L05 AppC combineP-Unit");
            force_tuple(argument, &[1, 0])?;
            force_tuple(argument, &[1, 1])?;
            check_lengths(argument)?;
            let payload = match (falses, trues) {
                (0, _) => p2(&ys),
                (_, 0) => p2(&xs),
                _ => ExprA::prim(Prim::Seq, &[Type::Unit, Type::Unit], pair(p2(&xs), p2(&ys))),
            };
            contract(pair(int(n), payload))
        }
        // Extension: L05 AppC combineP-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC combineP-Int-Bool");
            force_tuple(argument, &[1, 0])?;
            force_tuple(argument, &[1, 1])?;
            check_lengths(argument)?;
            let k = if *ty == Type::Int {
                Kernel::CombineInt
            } else {
                Kernel::CombineBool
            };
            contract(pair(
                int(n),
                data_of(
                    ty,
                    n,
                    kernel(
                        k,
                        ExprA::triple(
                            p2(&selector),
                            data_of(ty, falses, p2(&xs)),
                            data_of(ty, trues, p2(&ys)),
                        ),
                    ),
                ),
            ))
        }
        // Extension: L05 AppC combineP-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC combineP-Prod");
            force_tuple(argument, &[1, 0])?;
            force_tuple(argument, &[1, 1])?;
            check_lengths(argument)?;
            let (ps, qs) = (p2(&xs), p2(&ys));
            contract(pair(
                int(n),
                pair(
                    combine(a, selector.clone(), p1(&ps), p1(&qs)),
                    combine(b, selector, p2(&ps), p2(&qs)),
                ),
            ))
        }
        // Extension: L05 AppC combineP-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC combineP-Sum");
            let combined = combine(&Type::Bool, selector.clone(), p1(&xs), p1(&ys));
            let lefts = combine(
                a,
                pack(&Type::Bool, not_lifted(combined.clone()), selector.clone()),
                p1(&p2(&xs)),
                p1(&p2(&ys)),
            );
            let rights = combine(
                b,
                pack(&Type::Bool, combined.clone(), selector),
                p2(&p2(&xs)),
                p2(&p2(&ys)),
            );
            contract(pair(combined, pair(lefts, rights)))
        }
        // Extension: L05 AppC combineP-Fun
        Type::Fun(..) => {
            fire_rule("L05 AppC combineP-Fun");
            bottom("function arrays cannot be combined")
        }
        // L05 Ch4 combineP-Clo
        Type::Clo(a, b) => {
            fire_rule("L05 Ch4 combineP-Clo");
            contract(choice_closure(a, b, selector, xs, ys))
        }
        // Extension: L05 AppC combineP-Array
        Type::Array(a) => {
            fire_rule("L05 AppC combineP-Array");
            let segments = combine(&Type::Int, selector.clone(), p1(&xs), p1(&ys));
            let element_selector = expand(&Type::Bool, segments.clone(), selector);
            contract(pair(
                segments,
                combine(a, element_selector, p2(&xs), p2(&ys)),
            ))
        }
        // Extension: L05 AppC combineP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC combineP-Mu");
            contract(in_lifted(
                ty,
                combine(
                    &unfold(ty),
                    selector,
                    out_lifted(ty, xs),
                    out_lifted(ty, ys),
                ),
            ))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

// ---- auxiliary primitives --------------------------------------------------

fn auxiliary(prim: AuxPrim, args: &[Type], argument: &ExprA) -> Forced<Decision<ExprA>> {
    let t = |i: usize| args.get(i).cloned().unwrap_or(Type::Unit);
    match prim {
        AuxPrim::AttachP => attach_length(&t(0), argument),
        AuxPrim::GatherP => gather_array(&t(0), argument),
        // Extension: L05 AppC repeatP
        AuxPrim::RepeatP => {
            fire_rule("L05 AppC repeatP");
            let (_, xs) = force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let length = len(&t(0), &xs);
            let indices = pair(
                ExprA::prim(Prim::Mul, &[], pair(int(n), length.clone())),
                kernel(Kernel::RepeatIndices, pair(int(n), length)),
            );
            contract(gather(&t(0), indices, xs))
        }
        // Extension: L05 AppC expandP
        AuxPrim::ExpandP => {
            fire_rule("L05 AppC expandP");
            let (counts, xs) = force_tuple(argument, &[])?;
            let indices = pair(
                kernel(Kernel::SumInt, p2(&counts)),
                kernel(Kernel::ExpandIndices, p2(&counts)),
            );
            contract(gather(&t(0), indices, xs))
        }
        // L05 Ch4 cappP
        AuxPrim::CappP => {
            fire_rule("L05 Ch4 cappP");
            let (_, x) = force_tuple(argument, &[])?;
            let choice = force(argument, &[0])?;
            let closure = constructor_payload(&choice, &is_vectorised(Prim::Left))
                .or_else(|| constructor_payload(&choice, &is_vectorised(Prim::Right)));
            match closure {
                Some(c) => contract(ExprA::new(TermA::CloApp(c, x))),
                None => bottom("cappP of a non-sum"),
            }
        }
        // L05 Ch4 cappP-Lifted
        AuxPrim::CappPLifted => {
            fire_rule("L05 Ch4 cappP-Lifted");
            let (a, b) = (t(0), t(1));
            let pairs = p2(argument);
            let choices = p1(&pairs);
            let selector = p1(&choices);
            let (cf, cg) = (p1(&p2(&choices)), p2(&p2(&choices)));
            let xs = p2(&pairs);
            let xs1 = pack(&a, not_lifted(selector.clone()), xs.clone());
            let xs2 = pack(&a, selector.clone(), xs);
            let ys1 = ExprA::new(TermA::ArrCloApp(cf, xs1));
            let ys2 = ExprA::new(TermA::ArrCloApp(cg, xs2));
            contract(combine(&b, selector, ys1, ys2))
        }
        // L05 AppC repP-Sum-isRight
        AuxPrim::IsRight => {
            fire_rule("L05 AppC repP-Sum-isRight");
            let value = force(argument, &[])?;
            if constructor_payload(&value, &is_vectorised(Prim::Right)).is_some() {
                contract(ExprA::boolean(true))
            } else if constructor_payload(&value, &is_vectorised(Prim::Left)).is_some() {
                contract(ExprA::boolean(false))
            } else {
                bottom("isRight of a non-sum")
            }
        }
        // L05 AppC repP-Sum-rep
        AuxPrim::RepSumParts => {
            fire_rule("L05 AppC repP-Sum-rep");
            let (n, _) = force_tuple(argument, &[])?;
            let value = force(argument, &[1])?;
            let (a, b) = (t(0), t(1));
            if let Some(x) = constructor_payload(&value, &is_vectorised(Prim::Left)) {
                contract(pair(rep(&a, n, x), nil(&b)))
            } else if let Some(y) = constructor_payload(&value, &is_vectorised(Prim::Right)) {
                contract(pair(nil(&a), rep(&b, n, y)))
            } else {
                bottom("repP of a non-sum at a sum type")
            }
        }
    }
}

/// `attachP_⟨τ⟩ :: Int × τ.2 → τ.2`, strict in the length.
fn attach_length(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (_, xs) = force_tuple(argument, &[])?;
    let n = force_int(argument, &[0])?;
    match ty {
        // L05 AppC attachP-Flat
        Type::Unit | Type::Int | Type::Bool | Type::Prod(..) | Type::Fun(..) => {
            fire_rule("L05 AppC attachP-Flat");
            contract(pair(int(n), p2(&xs)))
        }
        // L05 AppC attachP-Sum
        Type::Sum(..) => {
            fire_rule("L05 AppC attachP-Sum");
            contract(pair(attach(&Type::Bool, int(n), p1(&xs)), p2(&xs)))
        }
        // L05 AppC attachP-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC attachP-Clo");
            let (code, types, environments) = force_array_closure(argument, &[1])?;
            let attached = attach(&types[0], int(n), environments);
            contract(array_closure(code, types, attached))
        }
        // L05 AppC attachP-Array
        Type::Array(_) => {
            fire_rule("L05 AppC attachP-Array");
            contract(pair(attach(&Type::Int, int(n), p1(&xs)), p2(&xs)))
        }
        // Extension: L05 AppC attachP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC attachP-Mu");
            contract(in_lifted(
                ty,
                attach(&unfold(ty), int(n), out_lifted(ty, xs)),
            ))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

/// `gatherP_⟨τ⟩ :: Int_.2 × τ.2 → τ.2`: `[xs !: i | i ← indices]`
/// (Extension; SPEC_NOTES L05-12).
fn gather_array(ty: &Type, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let (indices, xs) = force_tuple(argument, &[])?;
    force_tuple(argument, &[0])?;
    let k = force_int(argument, &[0, 0])?;
    let positions = force_ints(argument, &[0, 1])?;
    if positions.len() as i64 != k {
        return bottom("gatherP: index array shorter than its length");
    }
    let check_bounds = |n: i64| -> Forced<()> {
        match positions.iter().find(|&&i| i < 0 || i >= n) {
            Some(i) => bottom(format!("gatherP: index {i} out of bounds (length {n})")),
            None => Ok(()),
        }
    };
    match ty {
        // Extension: L05 AppC gatherP-Unit-Fun
        Type::Unit | Type::Fun(..) => {
            fire_rule("L05 AppC gatherP-Unit-Fun");
            force_tuple(argument, &[1])?;
            check_bounds(force_int(argument, &[1, 0])?)?;
            contract(pair(int(k), p2(&xs)))
        }
        // Extension: L05 AppC gatherP-Int-Bool
        Type::Int | Type::Bool => {
            fire_rule("L05 AppC gatherP-Int-Bool");
            let kernel_name = if *ty == Type::Int {
                Kernel::GatherInt
            } else {
                Kernel::GatherBool
            };
            force_tuple(argument, &[1])?;
            contract(pair(
                int(k),
                data_of(ty, k, kernel(kernel_name, pair(p2(&indices), p2(&xs)))),
            ))
        }
        // Extension: L05 AppC gatherP-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppC gatherP-Prod");
            let (_, ps) = force_tuple(argument, &[1])?;
            check_bounds(force_int(argument, &[1, 0])?)?;
            contract(pair(
                int(k),
                pair(
                    gather(a, indices.clone(), p1(&ps)),
                    gather(b, indices, p2(&ps)),
                ),
            ))
        }
        // Extension: L05 AppC gatherP-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppC gatherP-Sum");
            let (selector, parts) = force_tuple(argument, &[1])?;
            let new_selector = gather(&Type::Bool, indices.clone(), selector.clone());
            let ranks = |flag: bool| {
                let counter = if flag {
                    Kernel::CountTrue
                } else {
                    Kernel::CountFalse
                };
                pair(
                    kernel(counter, p2(&new_selector)),
                    kernel(Kernel::RankIndices(flag), pair(p2(&indices), p2(&selector))),
                )
            };
            contract(pair(
                new_selector.clone(),
                pair(
                    gather(a, ranks(false), p1(&parts)),
                    gather(b, ranks(true), p2(&parts)),
                ),
            ))
        }
        // Extension: L05 AppC gatherP-Clo
        Type::Clo(..) => {
            fire_rule("L05 AppC gatherP-Clo");
            let (code, types, environments) = force_array_closure(argument, &[1])?;
            let gathered = gather(&types[0], indices, environments);
            contract(array_closure(code, types, gathered))
        }
        // Extension: L05 AppC gatherP-Array
        Type::Array(a) => {
            fire_rule("L05 AppC gatherP-Array");
            let (segments, data) = force_tuple(argument, &[1])?;
            let new_segments = gather(&Type::Int, indices.clone(), segments.clone());
            let element_indices = pair(
                kernel(Kernel::SumInt, p2(&new_segments)),
                kernel(Kernel::SegmentIndices, pair(p2(&indices), p2(&segments))),
            );
            contract(pair(new_segments, gather(a, element_indices, data)))
        }
        // Extension: L05 AppC gatherP-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppC gatherP-Mu");
            contract(in_lifted(
                ty,
                gather(&unfold(ty), indices, out_lifted(ty, xs)),
            ))
        }
        Type::Var(_) => bottom("type index is a variable"),
    }
}

// ---- L_C[c]: lifted primitives ---------------------------------------------

fn lifted_primitive(c: &Const, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let t = |i: usize| c.type_args[i].clone();
    match c.prim {
        // L05 Ch3 lenP-Lifted
        Prim::LenP => {
            fire_rule("L05 Ch3 lenP-Lifted");
            force_tuple(argument, &[])?;
            contract(p1(argument))
        }
        // L05 Ch4 mapP-Lifted
        Prim::MapP => {
            fire_rule("L05 Ch4 mapP-Lifted");
            force_tuple(argument, &[])?;
            let (_, nested) = force_tuple(argument, &[1])?;
            let (code, types, environments) = force_array_closure(argument, &[1, 0])?;
            let segments = p1(&nested);
            contract(pair(
                segments.clone(),
                ExprA::new(TermA::ArrCloApp(
                    array_closure(
                        code,
                        types.clone(),
                        expand(&types[0], segments, environments),
                    ),
                    p2(&nested),
                )),
            ))
        }
        // L05 Ch4 case-Lifted
        Prim::Case => {
            fire_rule("L05 Ch4 case-Lifted");
            let (a, b, result) = (t(0), t(1), t(2));
            let pairs = p2(argument);
            let functions = p2(&p1(&pairs));
            let (fs, gs) = (p1(&functions), p2(&functions));
            let sums = p2(&pairs);
            let selector = p1(&sums);
            let (xs, ys) = (p1(&p2(&sums)), p2(&p2(&sums)));
            let lefts = pack(
                &Type::clo(a, result.clone()),
                not_lifted(selector.clone()),
                fs,
            );
            let rights = pack(&Type::clo(b, result.clone()), selector.clone(), gs);
            contract(combine(
                &result,
                selector,
                ExprA::new(TermA::ArrCloApp(lefts, xs)),
                ExprA::new(TermA::ArrCloApp(rights, ys)),
            ))
        }
        // Extension: L05 Lifted arithmetic
        Prim::Add
        | Prim::Sub
        | Prim::Mul
        | Prim::Div
        | Prim::Mod
        | Prim::Eq
        | Prim::Lt
        | Prim::Le => {
            fire_rule("L05 Lifted arithmetic");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let operands = p2(argument);
            let result_type = if matches!(c.prim, Prim::Eq | Prim::Lt | Prim::Le) {
                Type::Bool
            } else {
                Type::Int
            };
            contract(pair(
                int(n),
                data_of(
                    &result_type,
                    n,
                    kernel(
                        Kernel::ZipWith(c.prim),
                        pair(p2(&p1(&operands)), p2(&p2(&operands))),
                    ),
                ),
            ))
        }
        // Extension: L05 Lifted not
        Prim::Not => {
            fire_rule("L05 Lifted not");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            contract(pair(
                int(n),
                data_of(&Type::Bool, n, kernel(Kernel::NotArray, p2(argument))),
            ))
        }
        // Extension: L05 Lifted boolToSum
        Prim::BoolToSum => {
            fire_rule("L05 Lifted boolToSum");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let data = data_of(&Type::Bool, n, p2(argument));
            contract(pair(
                argument.clone(),
                pair(
                    pair(kernel(Kernel::CountFalse, data.clone()), ExprA::unit()),
                    pair(kernel(Kernel::CountTrue, data), ExprA::unit()),
                ),
            ))
        }
        // Extension: L05 Lifted in
        Prim::In => {
            fire_rule("L05 Lifted in");
            force(argument, &[])?;
            Ok(Decision::Value)
        }
        // Extension: L05 Lifted out
        Prim::Out => {
            fire_rule("L05 Lifted out");
            let inner = force_in_lifted(argument, &[])?;
            contract(inner)
        }
        // Extension: L05 Lifted generic
        _ => {
            fire_rule("L05 Lifted generic");
            generic_lifted(c, argument)
        }
    }
}

/// `c↑ xs → c↑# ⟨lenP xs, xs⟩`: the generic lifting first computes the length.
fn generic_lifted(c: &Const, argument: &ExprA) -> Forced<Decision<ExprA>> {
    let Ok((domain, _)) = signature(c.prim, &c.type_args, Calculus::C) else {
        return bottom("ill-formed constant");
    };
    contract(ExprA::app(
        ExprA::constant(ConstA::LiftedByIndexing(c.clone())),
        pair(len(&domain, argument), argument.clone()),
    ))
}

/// `c↑# ⟨n, xs⟩ = attachP⟨n, repP⟨1, c (xs !: 0)⟩ ++ … ++ repP⟨1, c (xs !: n-1)⟩⟩`:
/// the specification `p↑ xs ≅ mapP⟨p, xs⟩` (L2400) as a definition, for the
/// lifted primitives the thesis leaves to Keller (1999).
pub fn lifted_by_indexing(c: &Const, argument: &ExprA) -> Decision<ExprA> {
    let result = (|| {
        // Extension: L05 Lifted generic-expand
        fire_rule("L05 Lifted generic-expand");
        let Ok((domain, codomain)) = signature(c.prim, &c.type_args, Calculus::C) else {
            return bottom("ill-formed constant");
        };
        let (_, xs) = force_tuple(argument, &[])?;
        let n = force_int(argument, &[0])?;
        if n < 0 {
            return bottom("negative length");
        }
        let function = ExprA::constant(ConstA::Vectorised(c.clone()));
        let elements: Vec<ExprA> = (0..n)
            .map(|i| {
                rep(
                    &codomain,
                    int(1),
                    ExprA::app(function.clone(), index(&domain, xs.clone(), int(i))),
                )
            })
            .collect();
        fn build(ty: &Type, elements: &[ExprA]) -> ExprA {
            match elements.len() {
                0 => nil(ty),
                1 => elements[0].clone(),
                k => {
                    let (left, right) = elements.split_at(k / 2);
                    concat(ty, build(ty, left), build(ty, right))
                }
            }
        }
        contract(attach(&codomain, int(n), build(&codomain, &elements)))
    })();
    match result {
        Ok(decision) | Err(decision) => decision,
    }
}

// ---- unboxed kernels -------------------------------------------------------

/// A forced kernel operand.
enum Operand {
    Int(i64),
    Bool(bool),
    Ints(Rc<[i64]>),
    Bools(Rc<[bool]>),
}

fn operand(argument: &ExprA, path: &[usize]) -> Forced<Operand> {
    match force(argument, path)?.term() {
        TermA::Int(i) => Ok(Operand::Int(*i)),
        TermA::Bool(b) => Ok(Operand::Bool(*b)),
        TermA::ArrInt(values) => Ok(Operand::Ints(values.clone())),
        TermA::ArrBool(values) => Ok(Operand::Bools(values.clone())),
        _ => bottom("kernel operand is not unboxed"),
    }
}

fn operands(k: Kernel, argument: &ExprA) -> Forced<Vec<Operand>> {
    match k.arity() {
        1 => Ok(vec![operand(argument, &[])?]),
        2 => {
            force_tuple(argument, &[])?;
            Ok(vec![operand(argument, &[0])?, operand(argument, &[1])?])
        }
        _ => {
            force_tuple(argument, &[])?;
            let first = operand(argument, &[0])?;
            force_tuple(argument, &[1])?;
            Ok(vec![
                first,
                operand(argument, &[1, 0])?,
                operand(argument, &[1, 1])?,
            ])
        }
    }
}

/// The bytes of one element of an unboxed `Int` or `Bool` array, for the
/// memory limit (`machine::admit_elements`).
const INT_BYTES: u64 = 8;
const BOOL_BYTES: u64 = 1;

/// The unboxed kernels: strict in every operand (unboxed arrays have literal
/// elements only, Fig. 6.2).
fn unboxed_kernel(k: Kernel, argument: &ExprA) -> Forced<Decision<ExprA>> {
    // L05 AppC kernels
    fire_rule("L05 AppC kernels");
    use Operand::{Bool as B, Bools as Bs, Int as I, Ints as Is};
    let values = operands(k, argument)?;
    let ints = |v: Vec<i64>| contract(ExprA::arr_int(v));
    let bools = |v: Vec<bool>| contract(ExprA::arr_bool(v));
    let index_ok = |i: i64, n: usize| 0 <= i && (i as usize) < n;
    match (k, values.as_slice()) {
        (Kernel::RepInt, [I(n), I(x)]) => {
            admit_elements(*n, INT_BYTES)?;
            ints(vec![*x; (*n).max(0) as usize])
        }
        (Kernel::RepBool, [I(n), B(x)]) => {
            admit_elements(*n, BOOL_BYTES)?;
            bools(vec![*x; (*n).max(0) as usize])
        }
        (Kernel::ConcatInt, [Is(a), Is(b)]) => ints(a.iter().chain(b.iter()).copied().collect()),
        (Kernel::ConcatBool, [Bs(a), Bs(b)]) => bools(a.iter().chain(b.iter()).copied().collect()),
        (Kernel::IndexInt, [Is(a), I(i)]) if index_ok(*i, a.len()) => {
            contract(ExprA::int(a[*i as usize]))
        }
        (Kernel::IndexBool, [Bs(a), I(i)]) if index_ok(*i, a.len()) => {
            contract(ExprA::boolean(a[*i as usize]))
        }
        (Kernel::PackInt, [Bs(flags), Is(a)]) if flags.len() == a.len() => ints(
            a.iter()
                .zip(flags.iter())
                .filter(|(_, f)| **f)
                .map(|(x, _)| *x)
                .collect(),
        ),
        (Kernel::PackBool, [Bs(flags), Bs(a)]) if flags.len() == a.len() => bools(
            a.iter()
                .zip(flags.iter())
                .filter(|(_, f)| **f)
                .map(|(x, _)| *x)
                .collect(),
        ),
        (Kernel::CombineInt, [Bs(flags), Is(xs), Is(ys)]) => match combine_values(flags, xs, ys) {
            Some(v) => ints(v),
            None => bottom("combine: the flags do not match the lengths"),
        },
        (Kernel::CombineBool, [Bs(flags), Bs(xs), Bs(ys)]) => match combine_values(flags, xs, ys) {
            Some(v) => bools(v),
            None => bottom("combine: the flags do not match the lengths"),
        },
        (Kernel::GatherInt, [Is(indices), Is(a)]) => {
            match indices
                .iter()
                .map(|&i| index_ok(i, a.len()).then(|| a[i as usize]))
                .collect()
            {
                Some(v) => ints(v),
                None => bottom("gather: index out of bounds"),
            }
        }
        (Kernel::GatherBool, [Is(indices), Bs(a)]) => {
            match indices
                .iter()
                .map(|&i| index_ok(i, a.len()).then(|| a[i as usize]))
                .collect()
            {
                Some(v) => bools(v),
                None => bottom("gather: index out of bounds"),
            }
        }
        (Kernel::SumInt, [Is(a)]) => {
            contract(ExprA::int(a.iter().fold(0i64, |s, x| s.wrapping_add(*x))))
        }
        (Kernel::CountTrue, [Bs(a)]) => {
            contract(ExprA::int(a.iter().filter(|b| **b).count() as i64))
        }
        (Kernel::CountFalse, [Bs(a)]) => {
            contract(ExprA::int(a.iter().filter(|b| !**b).count() as i64))
        }
        (Kernel::NotArray, [Bs(a)]) => bools(a.iter().map(|b| !b).collect()),
        (Kernel::ZipWith(prim), [Is(a), Is(b)]) if a.len() == b.len() => {
            let mut out_ints = Vec::new();
            let mut out_bools = Vec::new();
            for (x, y) in a.iter().zip(b.iter()) {
                match arithmetic(prim, *x, *y) {
                    Some(result) => match result.term() {
                        TermA::Int(i) => out_ints.push(*i),
                        TermA::Bool(b) => out_bools.push(*b),
                        _ => {}
                    },
                    None => return bottom("division by zero"),
                }
            }
            if matches!(prim, Prim::Eq | Prim::Lt | Prim::Le) {
                bools(out_bools)
            } else {
                ints(out_ints)
            }
        }
        (Kernel::ExpandIndices, [Is(counts)]) => {
            if counts.iter().any(|c| *c < 0) {
                return bottom("expandP with a negative count");
            }
            admit_elements(
                counts
                    .iter()
                    .fold(0i64, |total, c| total.saturating_add(*c)),
                INT_BYTES,
            )?;
            ints(
                counts
                    .iter()
                    .enumerate()
                    .flat_map(|(i, c)| std::iter::repeat_n(i as i64, *c as usize))
                    .collect(),
            )
        }
        (Kernel::RepeatIndices, [I(n), I(length)]) if *n >= 0 && *length >= 0 => {
            admit_elements(n.saturating_mul(*length), INT_BYTES)?;
            ints((0..*n).flat_map(|_| 0..*length).collect())
        }
        (Kernel::RangeIndices, [I(from), I(to), I(length)]) => {
            if 0 <= *from && from <= to && to <= length {
                admit_elements(to - from, INT_BYTES)?;
                ints((*from..*to).collect())
            } else {
                bottom("takeP/dropP beyond the length")
            }
        }
        (Kernel::SegmentIndices, [Is(indices), Is(segments)]) => {
            let mut offsets = Vec::with_capacity(segments.len());
            let mut offset = 0i64;
            for s in segments.iter() {
                offsets.push(offset);
                offset = offset.wrapping_add(*s);
            }
            let mut out = Vec::new();
            for &i in indices.iter() {
                if !index_ok(i, segments.len()) {
                    return bottom("gather: segment index out of bounds");
                }
                admit_elements(
                    (out.len() as i64).saturating_add(segments[i as usize]),
                    INT_BYTES,
                )?;
                let start = offsets[i as usize];
                out.extend(start..start + segments[i as usize]);
            }
            ints(out)
        }
        (Kernel::RankIndices(flag), [Is(indices), Bs(selector)]) => {
            let mut ranks = Vec::with_capacity(selector.len());
            let mut count = 0i64;
            for s in selector.iter() {
                ranks.push(count);
                if *s == flag {
                    count += 1;
                }
            }
            let mut out = Vec::new();
            for &i in indices.iter() {
                if !index_ok(i, selector.len()) {
                    return bottom("gather: index out of bounds");
                }
                if selector[i as usize] == flag {
                    out.push(ranks[i as usize]);
                }
            }
            ints(out)
        }
        (Kernel::SameLength, [I(a), I(b)]) => {
            if a == b {
                contract(ExprA::int(*a))
            } else {
                bottom("zipP of arrays of different lengths")
            }
        }
        _ => bottom(format!("kernel {} out of its domain", k.name())),
    }
}

fn combine_values<T: Copy>(flags: &[bool], xs: &[T], ys: &[T]) -> Option<Vec<T>> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(flags.len());
    for flag in flags {
        if *flag {
            out.push(*ys.get(j)?);
            j += 1;
        } else {
            out.push(*xs.get(i)?);
            i += 1;
        }
    }
    (i == xs.len() && j == ys.len()).then_some(out)
}
