//! λA abstract syntax (Fig. 5.6), the language of flat arrays: no parallel-array
//! type, unboxed array literals `{i1,…,in}_Int` / `{b1,…,bn}_Bool`, closures and
//! array closures `⟨⟨|e1, τ1, τ2, τ3, e2|⟩⟩` with elementwise application `‡`,
//! and `μ•:τ.e` (missing from the printed grammar but required by rule REC and by
//! `V[μ•:τ.e]`; SPEC_NOTES L05-3).
//!
//! Type indices of constants and closures are associations `A[σ]` of λC types
//! `σ` (L1947); they are stored as the λC type `σ` (SPEC_NOTES L05-7).
//!
//! Constants: `V_C[c]` (the App C primitive of the same name, `Vectorised`),
//! `L_C[c]` (its lifted version, `Lifted`), and the auxiliary primitives of
//! App. C and Ch. 4 (`attachP`, `repeatP`, `expandP`, `cappP`, `cappP↑`, the
//! unboxed kernels, ...).

use super::constants::{write_type_args, Const, Prim};
use super::flat_types::TypeA;
use super::types::Type;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub struct ExprA(pub Rc<TermA>);

/// A λA constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstA {
    /// `V_C[c]_⟨A[τ̄]⟩` (Def. 5.12): the App C primitive.
    Vectorised(Const),
    /// `L_C[c]_⟨A[τ̄]⟩` (Def. 5.12): the lifted primitive `c↑`.
    Lifted(Const),
    /// An auxiliary primitive of App. C / Ch. 4, indexed by associations.
    Aux(AuxPrim, Vec<Type>),
    /// `c↑#`: the generic lifted primitive applied to `⟨lenP xs, xs⟩`
    /// (`primitives_a::lifted_by_indexing`).
    LiftedByIndexing(Const),
    /// An unboxed kernel (`rep_Int`, `concat_Int`, `pack_Bool`, ...): strict in
    /// every argument, no type index.
    Kernel(Kernel),
}

/// Auxiliary type-indexed primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuxPrim {
    /// `attachP_⟨τ⟩ :: Int × τ.2 → τ.2`.
    AttachP,
    /// `repeatP_⟨τ⟩ :: Int × τ.2 → τ.2` (repeat a whole array).
    RepeatP,
    /// `expandP_⟨τ⟩ :: Int_.2 × τ.2 → τ.2` (repeat element i `ss_i` times).
    ExpandP,
    /// `gatherP_⟨τ⟩ :: Int_.2 × τ.2 → τ.2` (backpermute; Extension, SPEC_NOTES
    /// L05-12): `takeP`, `dropP`, `repeatP`, `expandP` are defined with it.
    GatherP,
    /// `cappP_⟨τ1,τ2⟩ :: F[(τ1⇒τ2)+(τ1⇒τ2)] × F[τ1] → F[τ2]` (§4.4).
    CappP,
    /// `cappP↑_⟨τ1,τ2⟩` (§4.4, L1335).
    CappPLifted,
    /// `isRight_⟨τ1,τ2⟩ :: F[τ1+τ2] → Bool` (App. C, `repP` at `+_`).
    IsRight,
    /// `rep_⟨τ1,τ2⟩ :: Int × F[τ1+τ2] → τ1.2 × τ2.2` (App. C, `repP` at `+_`).
    RepSumParts,
}

impl AuxPrim {
    pub fn name(self) -> &'static str {
        match self {
            AuxPrim::AttachP => "attachP",
            AuxPrim::RepeatP => "repeatP",
            AuxPrim::ExpandP => "expandP",
            AuxPrim::GatherP => "gatherP",
            AuxPrim::CappP => "cappP",
            AuxPrim::CappPLifted => "cappP^",
            AuxPrim::IsRight => "isRight",
            AuxPrim::RepSumParts => "repSum",
        }
    }
}

/// Unboxed kernels. Arguments are tupled right-nested: one `a`, two `⟨a,b⟩`,
/// three `⟨a,⟨b,c⟩⟩`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// `rep_Int :: Int × Int → Arr_Int`.
    RepInt,
    RepBool,
    ConcatInt,
    ConcatBool,
    IndexInt,
    IndexBool,
    /// `pack_Int :: Arr_Bool × Arr_Int → Arr_Int`.
    PackInt,
    PackBool,
    /// `combine_Int :: Arr_Bool × (Arr_Int × Arr_Int) → Arr_Int`.
    CombineInt,
    CombineBool,
    /// `gather_Int :: Arr_Int × Arr_Int → Arr_Int` (indices, data).
    GatherInt,
    GatherBool,
    /// `sum :: Arr_Int → Int`.
    SumInt,
    /// `trues, falses :: Arr_Bool → Int`.
    CountTrue,
    CountFalse,
    /// `not↑` on the data: `Arr_Bool → Arr_Bool`.
    NotArray,
    /// Lifted binary arithmetic on data: `Arr_Int × Arr_Int → Arr_Int|Arr_Bool`.
    ZipWith(Prim),
    /// `Arr_Int → Arr_Int`: `[i repeated ss_i]`.
    ExpandIndices,
    /// `Int × Int → Arr_Int`: `n` copies of `0..len`.
    RepeatIndices,
    /// `Int × (Int × Int) → Arr_Int`: `from..to`, ⊥ unless `0 ≤ from ≤ to ≤ len`.
    RangeIndices,
    /// `Arr_Int × Arr_Int → Arr_Int`: element indices of the segments `idx`
    /// of a segmented array with lengths `ss`.
    SegmentIndices,
    /// `Arr_Int × Arr_Bool → Arr_Int`: for each `j` with `sel[idx[j]] = flag`,
    /// the rank of `idx[j]` among the positions of `sel` equal to `flag`.
    RankIndices(bool),
    /// `Int × Int → Int`: the length if both agree, ⊥ otherwise.
    SameLength,
}

impl Kernel {
    pub fn arity(self) -> usize {
        match self {
            Kernel::SumInt
            | Kernel::CountTrue
            | Kernel::CountFalse
            | Kernel::NotArray
            | Kernel::ExpandIndices => 1,
            Kernel::CombineInt | Kernel::CombineBool | Kernel::RangeIndices => 3,
            _ => 2,
        }
    }

    pub fn name(self) -> String {
        match self {
            Kernel::RepInt => "rep_Int".into(),
            Kernel::RepBool => "rep_Bool".into(),
            Kernel::ConcatInt => "concat_Int".into(),
            Kernel::ConcatBool => "concat_Bool".into(),
            Kernel::IndexInt => "index_Int".into(),
            Kernel::IndexBool => "index_Bool".into(),
            Kernel::PackInt => "pack_Int".into(),
            Kernel::PackBool => "pack_Bool".into(),
            Kernel::CombineInt => "combine_Int".into(),
            Kernel::CombineBool => "combine_Bool".into(),
            Kernel::GatherInt => "gather_Int".into(),
            Kernel::GatherBool => "gather_Bool".into(),
            Kernel::SumInt => "sum_Int".into(),
            Kernel::CountTrue => "trues_Bool".into(),
            Kernel::CountFalse => "falses_Bool".into(),
            Kernel::NotArray => "not_Bool".into(),
            Kernel::ZipWith(p) => format!("zipWith_{}", p.name()),
            Kernel::ExpandIndices => "expandIndices".into(),
            Kernel::RepeatIndices => "repeatIndices".into(),
            Kernel::RangeIndices => "rangeIndices".into(),
            Kernel::SegmentIndices => "segmentIndices".into(),
            Kernel::RankIndices(flag) => format!("rankIndices_{flag}"),
            Kernel::SameLength => "sameLength".into(),
        }
    }
}

/// `e` of λA.
#[derive(Clone, Debug)]
pub enum TermA {
    Int(i64),
    Bool(bool),
    Unit,
    ArrInt(Rc<[i64]>),
    ArrBool(Rc<[bool]>),
    Const(ConstA),
    Bullet,
    Tuple(ExprA, ExprA),
    Proj(ExprA, u8),
    App(ExprA, ExprA),
    Lam(TypeA, ExprA),
    Mu(TypeA, ExprA),
    /// `⟨⟨e1, A[σ1], A[σ2], A[σ3], e2⟩⟩`.
    Closure(ExprA, Rc<[Type; 3]>, ExprA),
    /// `e1 † e2`.
    CloApp(ExprA, ExprA),
    /// `⟨⟨|e1, A[σ1], A[σ2], A[σ3], e2|⟩⟩`.
    ArrClosure(ExprA, Rc<[Type; 3]>, ExprA),
    /// `e1 ‡ e2`.
    ArrCloApp(ExprA, ExprA),
}

impl ExprA {
    pub fn new(term: TermA) -> ExprA {
        ExprA(Rc::new(term))
    }
    pub fn term(&self) -> &TermA {
        &self.0
    }
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as *const u8 as usize
    }
    pub fn int(i: i64) -> ExprA {
        ExprA::new(TermA::Int(i))
    }
    pub fn boolean(b: bool) -> ExprA {
        ExprA::new(TermA::Bool(b))
    }
    pub fn unit() -> ExprA {
        ExprA::new(TermA::Unit)
    }
    pub fn bullet() -> ExprA {
        ExprA::new(TermA::Bullet)
    }
    pub fn arr_int(values: Vec<i64>) -> ExprA {
        ExprA::new(TermA::ArrInt(values.into()))
    }
    pub fn arr_bool(values: Vec<bool>) -> ExprA {
        ExprA::new(TermA::ArrBool(values.into()))
    }
    pub fn tuple(a: ExprA, b: ExprA) -> ExprA {
        ExprA::new(TermA::Tuple(a, b))
    }
    /// Right-nested tuple `⟨a, ⟨b, c⟩⟩` of three.
    pub fn triple(a: ExprA, b: ExprA, c: ExprA) -> ExprA {
        ExprA::tuple(a, ExprA::tuple(b, c))
    }
    pub fn proj(e: ExprA, i: u8) -> ExprA {
        ExprA::new(TermA::Proj(e, i))
    }
    pub fn app(a: ExprA, b: ExprA) -> ExprA {
        ExprA::new(TermA::App(a, b))
    }
    pub fn lam(ty: TypeA, body: ExprA) -> ExprA {
        ExprA::new(TermA::Lam(ty, body))
    }
    pub fn constant(c: ConstA) -> ExprA {
        ExprA::new(TermA::Const(c))
    }
    /// `V_C[prim]_⟨args⟩ arg`.
    pub fn prim(prim: Prim, type_args: &[Type], argument: ExprA) -> ExprA {
        ExprA::app(
            ExprA::constant(ConstA::Vectorised(Const {
                prim,
                type_args: type_args.to_vec(),
            })),
            argument,
        )
    }
    /// `aux_⟨args⟩ arg`.
    pub fn aux(aux: AuxPrim, type_args: &[Type], argument: ExprA) -> ExprA {
        ExprA::app(
            ExprA::constant(ConstA::Aux(aux, type_args.to_vec())),
            argument,
        )
    }
    /// `kernel arg`.
    pub fn kernel(kernel: Kernel, argument: ExprA) -> ExprA {
        ExprA::app(ExprA::constant(ConstA::Kernel(kernel)), argument)
    }

    pub fn children(&self) -> Vec<ExprA> {
        match self.term() {
            TermA::Int(_)
            | TermA::Bool(_)
            | TermA::Unit
            | TermA::ArrInt(_)
            | TermA::ArrBool(_)
            | TermA::Const(_)
            | TermA::Bullet => Vec::new(),
            TermA::Tuple(a, b)
            | TermA::App(a, b)
            | TermA::CloApp(a, b)
            | TermA::ArrCloApp(a, b)
            | TermA::Closure(a, _, b)
            | TermA::ArrClosure(a, _, b) => vec![a.clone(), b.clone()],
            TermA::Proj(e, _) | TermA::Lam(_, e) | TermA::Mu(_, e) => vec![e.clone()],
        }
    }

    pub fn with_child(&self, index: usize, child: ExprA) -> ExprA {
        let term = match (self.term(), index) {
            (TermA::Tuple(_, b), 0) => TermA::Tuple(child, b.clone()),
            (TermA::Tuple(a, _), 1) => TermA::Tuple(a.clone(), child),
            (TermA::App(_, b), 0) => TermA::App(child, b.clone()),
            (TermA::App(a, _), 1) => TermA::App(a.clone(), child),
            (TermA::CloApp(_, b), 0) => TermA::CloApp(child, b.clone()),
            (TermA::CloApp(a, _), 1) => TermA::CloApp(a.clone(), child),
            (TermA::ArrCloApp(_, b), 0) => TermA::ArrCloApp(child, b.clone()),
            (TermA::ArrCloApp(a, _), 1) => TermA::ArrCloApp(a.clone(), child),
            (TermA::Closure(_, t, b), 0) => TermA::Closure(child, t.clone(), b.clone()),
            (TermA::Closure(a, t, _), 1) => TermA::Closure(a.clone(), t.clone(), child),
            (TermA::ArrClosure(_, t, b), 0) => TermA::ArrClosure(child, t.clone(), b.clone()),
            (TermA::ArrClosure(a, t, _), 1) => TermA::ArrClosure(a.clone(), t.clone(), child),
            (TermA::Proj(_, i), 0) => TermA::Proj(child, *i),
            (TermA::Lam(t, _), 0) => TermA::Lam(t.clone(), child),
            (TermA::Mu(t, _), 0) => TermA::Mu(t.clone(), child),
            _ => return self.clone(),
        };
        ExprA::new(term)
    }

    pub fn at_path(&self, path: &[usize]) -> Option<ExprA> {
        let mut current = self.clone();
        for &index in path {
            current = current.children().get(index)?.clone();
        }
        Some(current)
    }

    pub fn replace_at(&self, path: &[usize], replacement: ExprA) -> ExprA {
        match path.split_first() {
            None => replacement,
            Some((&index, rest)) => match self.children().get(index) {
                Some(child) => self.with_child(index, child.replace_at(rest, replacement)),
                None => self.clone(),
            },
        }
    }

    /// `e1[e2/•]`, never entering `λ•`/`μ•` (§6.5); keeps sharing.
    pub fn substitute(&self, replacement: &ExprA) -> ExprA {
        let mut memo = HashMap::new();
        self.substitute_memo(replacement, &mut memo)
            .unwrap_or_else(|| self.clone())
    }

    fn substitute_memo(
        &self,
        replacement: &ExprA,
        memo: &mut HashMap<usize, Option<ExprA>>,
    ) -> Option<ExprA> {
        if let Some(done) = memo.get(&self.id()) {
            return done.clone();
        }
        let result = match self.term() {
            TermA::Bullet => Some(replacement.clone()),
            TermA::Lam(..) | TermA::Mu(..) => None,
            _ => {
                let mut rebuilt: Option<ExprA> = None;
                for (index, child) in self.children().iter().enumerate() {
                    if let Some(new_child) = child.substitute_memo(replacement, memo) {
                        let base = rebuilt.take().unwrap_or_else(|| self.clone());
                        rebuilt = Some(base.with_child(index, new_child));
                    }
                }
                rebuilt
            }
        };
        memo.insert(self.id(), result.clone());
        result
    }

    /// Printed forms of every `λ•` subterm (immutability check, Thm. 6.8).
    pub fn lambdas(&self, into: &mut Vec<String>) {
        if let TermA::Lam(..) = self.term() {
            into.push(self.to_string());
        }
        for child in self.children() {
            child.lambdas(into);
        }
    }

    /// Size of the term as a tree (shared subterms counted once per path,
    /// bounded to avoid blow-up when printing statistics).
    pub fn size(&self) -> usize {
        1 + self.children().iter().map(ExprA::size).sum::<usize>()
    }
}

/// Structural equality (Lemma 6.9 compares λA terms syntactically).
impl PartialEq for ExprA {
    fn eq(&self, other: &ExprA) -> bool {
        if Rc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        match (self.term(), other.term()) {
            (TermA::Int(a), TermA::Int(b)) => a == b,
            (TermA::Bool(a), TermA::Bool(b)) => a == b,
            (TermA::Unit, TermA::Unit) | (TermA::Bullet, TermA::Bullet) => true,
            (TermA::ArrInt(a), TermA::ArrInt(b)) => a == b,
            (TermA::ArrBool(a), TermA::ArrBool(b)) => a == b,
            (TermA::Const(a), TermA::Const(b)) => a == b,
            (TermA::Tuple(a1, a2), TermA::Tuple(b1, b2))
            | (TermA::App(a1, a2), TermA::App(b1, b2))
            | (TermA::CloApp(a1, a2), TermA::CloApp(b1, b2))
            | (TermA::ArrCloApp(a1, a2), TermA::ArrCloApp(b1, b2)) => a1 == b1 && a2 == b2,
            (TermA::Proj(a, i), TermA::Proj(b, j)) => i == j && a == b,
            (TermA::Lam(s, a), TermA::Lam(t, b)) | (TermA::Mu(s, a), TermA::Mu(t, b)) => {
                super::flat_types::equivalent(s, t) && a == b
            }
            (TermA::Closure(a1, s, a2), TermA::Closure(b1, t, b2))
            | (TermA::ArrClosure(a1, s, a2), TermA::ArrClosure(b1, t, b2)) => {
                s == t && a1 == b1 && a2 == b2
            }
            _ => false,
        }
    }
}

impl fmt::Display for ConstA {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstA::Vectorised(c) => write!(f, "{c}"),
            ConstA::Lifted(c) => {
                write!(f, "{}^", c.prim.name())?;
                write_type_args(f, &c.type_args)
            }
            ConstA::Aux(aux, args) => {
                write!(f, "{}", aux.name())?;
                write_type_args(f, args)
            }
            ConstA::Kernel(k) => write!(f, "{}", k.name()),
            ConstA::LiftedByIndexing(c) => {
                write!(f, "{}^#", c.prim.name())?;
                write_type_args(f, &c.type_args)
            }
        }
    }
}

/// λA terms printed like λC (`#` is `•`), with `{1,2}` for unboxed literals,
/// `<<|code, t1, t2, t3, env|>>` for array closures and `f $$ x` for `‡`; the
/// indices of closures and constants are the λC types whose associations they
/// stand for.
impl fmt::Display for ExprA {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_a(f, self, 0)
    }
}

fn write_a(f: &mut fmt::Formatter<'_>, e: &ExprA, context: u8) -> fmt::Result {
    match e.term() {
        TermA::Int(i) if *i < 0 && context > 0 => write!(f, "({i})"),
        TermA::Int(i) => write!(f, "{i}"),
        TermA::Bool(b) => write!(f, "{b}"),
        TermA::Unit => write!(f, "()"),
        TermA::ArrInt(values) => {
            let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            write!(f, "{{{}}}", items.join(","))
        }
        TermA::ArrBool(values) => {
            let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            write!(f, "{{{}}}", items.join(","))
        }
        TermA::Const(c) => write!(f, "{c}"),
        TermA::Bullet => write!(f, "#"),
        TermA::Tuple(a, b) => {
            write!(f, "(")?;
            write_a(f, a, 0)?;
            write!(f, ", ")?;
            write_a(f, b, 0)?;
            write!(f, ")")
        }
        TermA::Proj(inner, i) => {
            write_a(f, inner, 3)?;
            write!(f, ".{i}")
        }
        TermA::App(a, b) | TermA::CloApp(a, b) | TermA::ArrCloApp(a, b) => {
            let operator = match e.term() {
                TermA::App(..) => " ",
                TermA::CloApp(..) => " $ ",
                _ => " $$ ",
            };
            if context > 1 {
                write!(f, "(")?;
            }
            write_a(f, a, 1)?;
            write!(f, "{operator}")?;
            write_a(f, b, 2)?;
            if context > 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermA::Lam(ty, body) | TermA::Mu(ty, body) => {
            let keyword = if matches!(e.term(), TermA::Lam(..)) {
                "\\#"
            } else {
                "mu #"
            };
            if context > 0 {
                write!(f, "(")?;
            }
            write!(f, "{keyword} : {ty} -> ")?;
            write_a(f, body, 0)?;
            if context > 0 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermA::Closure(code, types, env) | TermA::ArrClosure(code, types, env) => {
            let (open, close) = if matches!(e.term(), TermA::Closure(..)) {
                ("<<", ">>")
            } else {
                ("<<|", "|>>")
            };
            write!(f, "{open}")?;
            write_a(f, code, 0)?;
            write!(f, ", {}, {}, {}, ", types[0], types[1], types[2])?;
            write_a(f, env, 0)?;
            write!(f, "{close}")
        }
    }
}
