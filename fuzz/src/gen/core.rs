//! The type-directed generator of core expressions: given an environment and
//! a requested type, pick a construct that produces a value of that type.
//!
//! Alternatives are listed simplest first (a leaf before anything compound),
//! so the zero choice always means "the simplest thing". Depth strictly
//! decreases on every recursive request, and at depth 0 only leaves are built
//! (variables, literals, and structural values made of leaves), so every
//! choice sequence gives a finite, well-typed expression. The typing rules
//! assumed for each construct are written down in `typing_notes.md`.

use super::build::*;
use super::env::Env;
use super::mutate::MutationKind;
use super::types::*;
use super::{ChoiceSpan, Generator};
use spec::syntax::ast::*;
use spec::value::PrimType;

/// The constructs a request can be answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alt {
    Leaf,
    Let,
    LetDestructure,
    LetFun,
    LetSized,
    LetWith,
    If,
    Apply,
    Match,
    Loop,
    Ascribe,
    OpenIn,
    Arith,
    Compare,
    Logic,
    Not,
    Negate,
    Convert,
    Reduce,
    Length,
    Index,
    ArrayLiteral,
    Replicate,
    Iota,
    Map,
    Map2,
    Scan,
    Filter,
    Zip,
    Reverse,
    Concat,
    Update,
    Slice,
    Range,
    Transpose,
    TupleLiteral,
    RecordLiteral,
    RecordUpdate,
    Constructor,
    Lambda,
    Section,
    Project,
}

/// Primitive types weighted by how often programs should use them.
const PRIM_WEIGHTS: [(PrimType, u32); 11] = [
    (PrimType::I32, 8),
    (PrimType::I64, 4),
    (PrimType::Bool, 4),
    (PrimType::F32, 3),
    (PrimType::F64, 1),
    (PrimType::U8, 1),
    (PrimType::I8, 1),
    (PrimType::I16, 1),
    (PrimType::U16, 1),
    (PrimType::U32, 1),
    (PrimType::U64, 1),
];

impl Generator {
    // -----------------------------------------------------------------------
    // Types

    pub fn random_prim(&mut self) -> PrimType {
        let weights: Vec<u32> = PRIM_WEIGHTS.iter().map(|(_, w)| *w).collect();
        PRIM_WEIGHTS[self.choices.weighted(&weights)].0
    }

    pub fn random_numeric(&mut self) -> PrimType {
        loop {
            let prim = self.random_prim();
            if prim != PrimType::Bool {
                return prim;
            }
            // Replay past the end reads zeros, which pick i32: no endless loop.
        }
    }

    /// A known size: a named size in scope or a small constant.
    pub fn known_size(&mut self, env: &Env) -> Size {
        if !env.sizes.is_empty() && self.choices.chance(1, 2) {
            let index = self.choices.below(env.sizes.len() as u32) as usize;
            return Size::Named(env.sizes[index].clone());
        }
        Size::Const(u64::from(self.choices.range(1, 4)))
    }

    /// A random inhabited order-zero type. With `known_only`, every array
    /// size is known; otherwise the outermost size may be unknown.
    pub fn random_type(&mut self, env: &Env, known_only: bool, depth: u32) -> Ty {
        let opaque = self.inhabited_opaque_types(env);
        let weights = [
            8,
            if depth > 0 { 4 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if env.sum_types.is_empty() { 0 } else { 1 },
            if opaque.is_empty() { 0 } else { 2 },
        ];
        match self.choices.weighted(&weights) {
            0 => Ty::Prim(self.random_prim()),
            1 => {
                let size = if known_only || self.choices.chance(1, 2) {
                    self.known_size(env)
                } else {
                    Size::Unknown
                };
                let element = if self.choices.chance(1, 5) {
                    let inner = self.known_size(env);
                    array(inner, Ty::Prim(self.random_prim()))
                } else {
                    self.random_type(env, true, 0)
                };
                array(size, element)
            }
            2 => Ty::Tuple(vec![
                self.random_type(env, known_only, depth - 1),
                self.random_type(env, known_only, depth - 1),
            ]),
            3 => {
                let records: Vec<Ty> = env
                    .abbreviations
                    .iter()
                    .filter(|a| matches!(a.ty, Ty::Record(_)))
                    .map(|a| a.ty.clone())
                    .collect();
                if !records.is_empty() && self.choices.chance(1, 2) {
                    let index = self.choices.below(records.len() as u32) as usize;
                    return records[index].clone();
                }
                Ty::Record(vec![
                    ("a".to_string(), Ty::Prim(self.random_prim())),
                    (
                        "b".to_string(),
                        self.random_type(env, known_only, depth - 1),
                    ),
                ])
            }
            4 => {
                let index = self.choices.below(env.sum_types.len() as u32) as usize;
                env.sum_types[index].clone()
            }
            _ => {
                let index = self.choices.below(opaque.len() as u32) as usize;
                opaque[index].clone()
            }
        }
    }

    fn inhabited_opaque_types(&self, env: &Env) -> Vec<Ty> {
        let mut out: Vec<Ty> = Vec::new();
        for binding in env.visible() {
            if !binding.scheme.is_mono() {
                continue;
            }
            let (_, result) = binding.scheme.ty.uncurry();
            if matches!(result, Ty::Param(_) | Ty::Abstract(_))
                && !out.contains(result)
                && env.inhabited(result)
            {
                out.push(result.clone());
            }
        }
        out
    }

    // -----------------------------------------------------------------------
    // Leaves

    /// A literal of a primitive type (small magnitudes).
    pub fn literal_of(&mut self, prim: PrimType) -> Expr {
        let magnitude = u64::from(
            self.choices
                .below(if prim == PrimType::Bool { 2 } else { 16 }),
        );
        literal(prim, magnitude)
    }

    /// A value of `ty` built without compound computation. `ty` must be
    /// inhabited in `env`.
    pub fn leaf(&mut self, env: &mut Env, ty: &Ty) -> Expr {
        let variables: Vec<(Vec<String>, String)> = env
            .variables_of(ty)
            .into_iter()
            .map(|b| (b.qualifiers.clone(), b.name.clone()))
            .collect();
        let projections = self.projections_of(env, ty);
        let opaque = matches!(ty, Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_));
        let weights = [
            if opaque { 0 } else { 2 },
            variables.len().min(3) as u32 * 2,
            projections.len().min(2) as u32,
        ];
        match self.choices.weighted(&weights) {
            1 => {
                let index = self.choices.below(variables.len() as u32) as usize;
                let (qualifiers, name) = &variables[index];
                self.variable_reference(qualifiers, name)
            }
            2 => {
                let index = self.choices.below(projections.len() as u32) as usize;
                projections[index].clone()
            }
            _ => self.construct_leaf(env, ty),
        }
    }

    fn variable_reference(&mut self, qualifiers: &[String], name: &str) -> Expr {
        if self.mutation_site(MutationKind::UnboundVariable) {
            return var("unbound_variable");
        }
        if spec::syntax::operators::is_operator_name(name) {
            // An operator as a value is written as a section: `(M.+^)`.
            return Expr::OpSection {
                op: BinOp::Symbol(qual(qualifiers, name)),
                span: span(),
            };
        }
        qualified_var(qualifiers, name)
    }

    /// `r.f` for visible unqualified records and tuples with a field of `ty`.
    fn projections_of(&self, env: &Env, ty: &Ty) -> Vec<Expr> {
        let mut out = Vec::new();
        for binding in env.visible() {
            if !binding.qualifiers.is_empty() || !binding.scheme.is_mono() {
                continue;
            }
            let fields: Vec<(String, &Ty)> = match &binding.scheme.ty {
                Ty::Tuple(elements) => elements
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i.to_string(), t))
                    .collect(),
                Ty::Record(fields) => fields.iter().map(|(n, t)| (n.clone(), t)).collect(),
                _ => continue,
            };
            for (field, field_ty) in fields {
                if field_ty.fits(ty) {
                    out.push(Expr::Var(qual(std::slice::from_ref(&binding.name), &field)));
                }
            }
        }
        out
    }

    fn construct_leaf(&mut self, env: &mut Env, ty: &Ty) -> Expr {
        match ty {
            Ty::Prim(prim) => self.literal_of(*prim),
            Ty::Array(size, element) => {
                let size = match size {
                    Size::Unknown => Size::Const(u64::from(self.choices.range(1, 3))),
                    other => other.clone(),
                };
                let element = element.concretise(u64::from(self.choices.range(1, 2)));
                match size {
                    Size::Const(k) if (1..=3).contains(&k) && self.choices.chance(2, 3) => {
                        let elements = (0..k).map(|_| self.leaf(env, &element)).collect();
                        Expr::Array {
                            elements,
                            span: span(),
                        }
                    }
                    size => {
                        let count = size_expr(&size);
                        let value = self.leaf(env, &element);
                        call("replicate", vec![count, value])
                    }
                }
            }
            Ty::Tuple(elements) => tuple(elements.iter().map(|t| self.leaf(env, t)).collect()),
            Ty::Record(fields) => Expr::Record {
                fields: fields
                    .iter()
                    .map(|(n, t)| (n.clone(), self.leaf(env, t)))
                    .collect(),
                span: span(),
            },
            Ty::Sum { constructors, .. } => {
                let usable: Vec<&(String, Vec<Ty>)> = constructors
                    .iter()
                    .filter(|(_, payload)| payload.iter().all(|t| env.inhabited(t)))
                    .collect();
                let index = self.choices.below(usable.len() as u32) as usize;
                let (name, payload) = usable[index].clone();
                let payload = payload.iter().map(|t| self.leaf(env, t)).collect();
                self.constructor_expr(env, ty, &name, payload)
            }
            Ty::Arrow(from, to) => {
                let name = self.fresh("p");
                let mark = env.mark();
                env.bind(&name, (**from).clone(), false);
                let body = self.leaf(env, to);
                env.truncate(mark);
                let param = pat_ascribe(pat_var(&name), env.type_exp(from));
                self.lambda_site(env, ty, lambda(vec![param], None, body))
            }
            Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => {
                let witnesses: Vec<(Vec<String>, String, Vec<Ty>)> = env
                    .opaque_witnesses(ty)
                    .into_iter()
                    .map(|b| {
                        let (params, _) = b.scheme.ty.uncurry();
                        (
                            b.qualifiers.clone(),
                            b.name.clone(),
                            params.into_iter().cloned().collect(),
                        )
                    })
                    .collect();
                assert!(
                    !witnesses.is_empty(),
                    "requested an uninhabited type {ty:?}"
                );
                let index = self.choices.below(witnesses.len() as u32) as usize;
                let (qualifiers, name, params) = &witnesses[index];
                let arguments = params.iter().map(|p| self.leaf(env, p)).collect();
                apply_all(self.variable_reference(qualifiers, name), arguments)
            }
        }
    }

    fn constructor_expr(&mut self, env: &Env, ty: &Ty, name: &str, payload: Vec<Expr>) -> Expr {
        let constructor = Expr::Constructor {
            name: name.to_string(),
            payload,
            span: span(),
        };
        ascribe(constructor, env.type_exp(ty))
    }

    // -----------------------------------------------------------------------
    // Compound expressions

    /// An expression of type `ty` (inhabited in `env`) of depth at most `depth`.
    pub fn expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        spec::recursion::with_stack(|| self.expr_inner(env, ty, depth))
    }

    fn expr_inner(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        if depth == 0 {
            return self.leaf(env, ty);
        }
        let alternatives = self.alternatives(env, ty);
        let weights: Vec<u32> = alternatives.iter().map(|(w, _)| *w).collect();
        let decision = self.choices.used().len();
        let alt = alternatives[self.choices.weighted(&weights)].1;
        let start = self.choices.used().len();
        let built = self.build_alternative(env, ty, alt, depth - 1);
        if alt != Alt::Leaf {
            let end = self.choices.used().len();
            self.spans.push(ChoiceSpan {
                decision,
                start,
                end,
            });
        }
        built
    }

    fn build_alternative(&mut self, env: &mut Env, ty: &Ty, alt: Alt, d: u32) -> Expr {
        match alt {
            Alt::Leaf => self.leaf(env, ty),
            Alt::Let => self.let_expr(env, ty, d),
            Alt::LetDestructure => self.let_destructure(env, ty, d),
            Alt::LetFun => self.let_fun(env, ty, d),
            Alt::LetSized => self.let_sized(env, ty, d),
            Alt::LetWith => self.let_with(env, ty, d),
            Alt::If => {
                let condition = self.condition(env, d);
                let then_branch = self.expr(env, ty, d);
                let mut else_branch = self.expr(env, ty, d);
                if self.mutation_site(MutationKind::IfBranchesDiffer) {
                    else_branch = wrong_literal(ty);
                }
                if_then_else(condition, then_branch, else_branch)
            }
            Alt::Apply => self.application(env, ty, d),
            Alt::Match => self.match_expr(env, ty, d),
            Alt::Loop => self.loop_expr(env, ty, d),
            Alt::Ascribe => {
                let inner = self.expr(env, ty, d);
                let coercible = ty.order_zero() && !ty.has_unknown_size() && !ty.has_opaque_part();
                if coercible && self.choices.chance(1, 3) {
                    Expr::Coerce {
                        expr: Box::new(inner),
                        ty: env.type_exp(ty),
                        span: span(),
                    }
                } else {
                    ascribe(inner, env.type_exp(ty))
                }
            }
            Alt::OpenIn => self.open_in(env, ty, d),
            Alt::Arith => self.arith(env, ty, d),
            Alt::Compare => {
                let operand = Ty::Prim(self.random_prim());
                let ops: &[&str] = if operand == bool_ty() {
                    &["==", "!="]
                } else {
                    &["<", "==", "<=", ">", ">=", "!="]
                };
                let op = ops[self.choices.below(ops.len() as u32) as usize];
                let lhs = self.expr(env, &operand, d);
                let rhs = self.expr(env, &operand, d);
                binop(op, lhs, rhs)
            }
            Alt::Logic => {
                let op = if self.choices.chance(1, 2) {
                    "||"
                } else {
                    "&&"
                };
                let lhs = self.expr(env, ty, d);
                let mut rhs = self.expr(env, ty, d);
                if self.mutation_site(MutationKind::OperandMismatch) {
                    rhs = wrong_literal(ty);
                }
                binop(op, lhs, rhs)
            }
            Alt::Not => Expr::Not {
                expr: Box::new(self.expr(env, ty, d)),
                span: span(),
            },
            Alt::Negate => Expr::Negate {
                expr: Box::new(self.expr(env, ty, d)),
                span: span(),
            },
            Alt::Convert => self.convert(env, ty, d),
            Alt::Reduce => self.reduce(env, ty, d),
            Alt::Length => {
                let element = self.random_type(env, true, 0);
                let xs = self.expr(env, &array(Size::Unknown, element), d);
                if self.choices.chance(1, 4) {
                    binop("|>", xs, var("length"))
                } else {
                    call("length", vec![xs])
                }
            }
            Alt::Index => self.index_expr(env, ty, d),
            Alt::ArrayLiteral => {
                let Ty::Array(size, element) = ty else {
                    unreachable!()
                };
                let count = match size {
                    Size::Const(k) => *k,
                    _ => u64::from(self.choices.range(1, 3)),
                };
                let element = element.concretise(u64::from(self.choices.range(1, 2)));
                let mut elements: Vec<Expr> =
                    (0..count).map(|_| self.expr(env, &element, d)).collect();
                if self.mutation_site(MutationKind::ArrayElementsDiffer) {
                    let last = elements.len() - 1;
                    elements[last] = wrong_literal(&element);
                }
                Expr::Array {
                    elements,
                    span: span(),
                }
            }
            Alt::Replicate => {
                let Ty::Array(size, element) = ty else {
                    unreachable!()
                };
                let size = match size {
                    Size::Unknown => Size::Const(u64::from(self.choices.below(4))),
                    other => other.clone(),
                };
                let value = self.expr(env, element, d);
                call("replicate", vec![size_expr(&size), value])
            }
            Alt::Iota => {
                let Ty::Array(size, _) = ty else {
                    unreachable!()
                };
                let size = match size {
                    Size::Unknown => Size::Const(u64::from(self.choices.below(5))),
                    other => other.clone(),
                };
                call("iota", vec![size_expr(&size)])
            }
            Alt::Map => self.map_expr(env, ty, d),
            Alt::Map2 => self.map2_expr(env, ty, d),
            Alt::Scan => self.scan(env, ty, d),
            Alt::Filter => {
                let Ty::Array(_, element) = ty else {
                    unreachable!()
                };
                let xs = self.expr(env, &array(Size::Unknown, (**element).clone()), d);
                let predicate = self.expr(env, &arrow((**element).clone(), bool_ty()), d);
                call("filter", vec![predicate, xs])
            }
            Alt::Zip => {
                let Ty::Array(size, element) = ty else {
                    unreachable!()
                };
                let Ty::Tuple(parts) = element.as_ref() else {
                    unreachable!()
                };
                let size = match size {
                    Size::Unknown => self.known_size(env),
                    other => other.clone(),
                };
                let xs = self.expr(env, &array(size.clone(), parts[0].clone()), d);
                let mut ys = self.expr(env, &array(size.clone(), parts[1].clone()), d);
                if let Size::Const(k) = size {
                    if self.mutation_site(MutationKind::SizeMismatch) {
                        let other = self.leaf(env, &parts[1]);
                        ys = call("replicate", vec![i64_literal(k + 1), other]);
                    }
                }
                call("zip", vec![xs, ys])
            }
            Alt::Reverse => {
                let xs = self.expr(env, ty, d);
                call("reverse", vec![xs])
            }
            Alt::Concat => {
                let xs = self.expr(env, ty, d);
                let ys = self.expr(env, ty, d);
                if self.choices.chance(1, 2) {
                    binop("++", xs, ys)
                } else {
                    call("concat", vec![xs, ys])
                }
            }
            Alt::Update => {
                let Ty::Array(Size::Const(k), element) = ty else {
                    unreachable!()
                };
                let target = self.expr(env, ty, d);
                let position = u64::from(self.choices.below(*k as u32));
                let value = self.expr(env, element, d);
                Expr::Update {
                    target: Box::new(target),
                    indices: vec![DimIndex::Index(i64_literal(position))],
                    value: Box::new(value),
                    span: span(),
                }
            }
            Alt::Slice => self.slice(env, ty, d),
            Alt::Range => {
                // Always well formed: `0...k`, `0..<k`, `k..>0`, `0..2...k`.
                let bound = i64_literal(u64::from(self.choices.below(5)));
                let (start, step, end, end_kind) = match self.choices.below(4) {
                    0 => (i64_literal(0), None, bound, RangeEnd::UpToExclusive),
                    1 => (i64_literal(0), None, bound, RangeEnd::Inclusive),
                    2 => (bound, None, i64_literal(0), RangeEnd::DownToExclusive),
                    _ => (
                        i64_literal(0),
                        Some(Box::new(i64_literal(2))),
                        bound,
                        RangeEnd::Inclusive,
                    ),
                };
                Expr::Range {
                    start: Box::new(start),
                    step,
                    end: Box::new(end),
                    end_kind,
                    span: span(),
                }
            }
            Alt::Transpose => {
                let Ty::Array(outer, inner) = ty else {
                    unreachable!()
                };
                let Ty::Array(inner_size, element) = inner.as_ref() else {
                    unreachable!()
                };
                let source = array(
                    inner_size.clone(),
                    array(outer.clone(), (**element).clone()),
                );
                call("transpose", vec![self.expr(env, &source, d)])
            }
            Alt::TupleLiteral => {
                let Ty::Tuple(elements) = ty else {
                    unreachable!()
                };
                tuple(elements.iter().map(|t| self.expr(env, t, d)).collect())
            }
            Alt::RecordLiteral => {
                let Ty::Record(fields) = ty else {
                    unreachable!()
                };
                Expr::Record {
                    fields: fields
                        .iter()
                        .map(|(n, t)| (n.clone(), self.expr(env, t, d)))
                        .collect(),
                    span: span(),
                }
            }
            Alt::RecordUpdate => {
                let Ty::Record(fields) = ty else {
                    unreachable!()
                };
                let target = self.expr(env, ty, d);
                let index = self.choices.below(fields.len() as u32) as usize;
                let (field, field_ty) = &fields[index];
                let value = self.expr(env, field_ty, d);
                Expr::RecordUpdate {
                    target: Box::new(target),
                    fields: vec![field.clone()],
                    value: Box::new(value),
                    span: span(),
                }
            }
            Alt::Constructor => {
                let Ty::Sum { constructors, .. } = ty else {
                    unreachable!()
                };
                let usable: Vec<(String, Vec<Ty>)> = constructors
                    .iter()
                    .filter(|(_, payload)| payload.iter().all(|t| env.inhabited(t)))
                    .cloned()
                    .collect();
                let index = self.choices.below(usable.len() as u32) as usize;
                let (name, payload) = &usable[index];
                let payload = payload.iter().map(|t| self.expr(env, t, d)).collect();
                self.constructor_expr(env, ty, name, payload)
            }
            Alt::Lambda => self.lambda_expr(env, ty, d),
            Alt::Section => self.section(env, ty, d),
            Alt::Project => {
                let other = self.random_type(env, true, 0);
                let (record_ty, field) = if self.choices.chance(1, 2) {
                    (Ty::Tuple(vec![ty.clone(), other]), "0".to_string())
                } else {
                    (
                        Ty::Record(vec![
                            ("x".to_string(), other),
                            ("y".to_string(), ty.clone()),
                        ]),
                        "y".to_string(),
                    )
                };
                let record = self.expr(env, &record_ty, d);
                if self.mutation_site(MutationKind::MissingField) {
                    return Expr::Project {
                        expr: Box::new(record),
                        field: "missing_field".to_string(),
                        span: span(),
                    };
                }
                Expr::Project {
                    expr: Box::new(record),
                    field,
                    span: span(),
                }
            }
        }
    }

    fn alternatives(&mut self, env: &Env, ty: &Ty) -> Vec<(u32, Alt)> {
        let w = &self.config.weights;
        let mut alts = vec![(w.leaf, Alt::Leaf), (w.let_binding, Alt::Let)];
        alts.push((w.let_binding / 3 + 1, Alt::LetDestructure));
        alts.push((1, Alt::LetFun));
        let order_zero = ty.order_zero();
        if order_zero {
            alts.push((w.branch, Alt::If));
            alts.push((w.branch / 2 + 1, Alt::Match));
            if !ty.has_unknown_size() {
                alts.push((w.loops, Alt::Loop));
            }
        }
        alts.push((1, Alt::LetWith));
        alts.push((1, Alt::LetSized));
        if !self.application_candidates(env, ty).is_empty() {
            alts.push((w.application, Alt::Apply));
        }
        alts.push((1, Alt::Ascribe));
        if !env.structures.is_empty() {
            alts.push((1, Alt::OpenIn));
        }
        if order_zero && !ty.has_unknown_size() {
            alts.push((1, Alt::Project));
        }
        match ty {
            Ty::Prim(prim) => {
                if *prim == PrimType::Bool {
                    alts.push((3, Alt::Compare));
                    alts.push((2, Alt::Logic));
                    alts.push((1, Alt::Not));
                } else {
                    alts.push((w.arithmetic, Alt::Arith));
                    if prim.is_signed_integer() || prim.is_float() {
                        alts.push((1, Alt::Negate));
                    }
                    if *prim != PrimType::U64 || self.choices.chance(1, 2) {
                        alts.push((1, Alt::Convert));
                    }
                    alts.push((w.soac, Alt::Reduce));
                }
                if *prim == PrimType::I64 {
                    alts.push((1, Alt::Length));
                }
                alts.push((w.soac / 2 + 1, Alt::Index));
            }
            Ty::Array(size, element) => {
                let element_known = !element.has_unknown_size();
                if matches!(size, Size::Const(1..=4) | Size::Unknown) {
                    alts.push((2, Alt::ArrayLiteral));
                }
                alts.push((1, Alt::Replicate));
                if **element == i64_ty() {
                    alts.push((2, Alt::Iota));
                    if *size == Size::Unknown {
                        alts.push((6, Alt::Range));
                    }
                }
                if element_known {
                    alts.push((w.soac, Alt::Map));
                    alts.push((w.soac / 2 + 1, Alt::Map2));
                    if Self::scan_operator(element).is_some() {
                        alts.push((1, Alt::Scan));
                    }
                    if let Ty::Tuple(parts) = element.as_ref() {
                        if parts.len() == 2 {
                            alts.push((6, Alt::Zip));
                        }
                    }
                    if let Ty::Array(inner, _) = element.as_ref() {
                        if *size != Size::Unknown && *inner != Size::Unknown {
                            alts.push((1, Alt::Transpose));
                        }
                    }
                }
                alts.push((1, Alt::Reverse));
                if *size == Size::Unknown && element_known {
                    alts.push((2, Alt::Filter));
                    alts.push((1, Alt::Concat));
                    alts.push((1, Alt::Slice));
                }
                if matches!(size, Size::Const(1..)) && element.order_zero() {
                    alts.push((1, Alt::Update));
                }
                alts.push((1, Alt::Index));
            }
            Ty::Tuple(elements) if !elements.is_empty() => alts.push((3, Alt::TupleLiteral)),
            Ty::Record(_) => {
                alts.push((3, Alt::RecordLiteral));
                alts.push((1, Alt::RecordUpdate));
            }
            Ty::Sum { .. } => alts.push((3, Alt::Constructor)),
            Ty::Arrow(..) => {
                alts.push((w.lambda, Alt::Lambda));
                if self.section_possible(ty) {
                    alts.push((5, Alt::Section));
                }
            }
            _ => {}
        }
        if order_zero && !matches!(ty, Ty::Prim(_) | Ty::Array(..)) {
            alts.push((1, Alt::Index));
        }
        alts
    }

    fn condition(&mut self, env: &mut Env, depth: u32) -> Expr {
        let condition = self.expr(env, &bool_ty(), depth);
        if self.mutation_site(MutationKind::IfConditionNotBool) {
            return literal(PrimType::I32, 1);
        }
        condition
    }

    // -----------------------------------------------------------------------
    // Bindings

    /// A name for a new local: fresh, or (rarely) shadowing a primitive local.
    fn local_name(&mut self, env: &Env) -> String {
        let shadowable: Vec<String> = env
            .visible()
            .into_iter()
            .filter(|b| b.shadowable && b.qualifiers.is_empty())
            .map(|b| b.name.clone())
            .collect();
        if !shadowable.is_empty() && self.choices.chance(1, 8) {
            let index = self.choices.below(shadowable.len() as u32) as usize;
            self.counters.shadowing += 1;
            return shadowable[index].clone();
        }
        self.fresh("x")
    }

    fn let_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let bound = if self.choices.chance(1, 10) {
            // A record holding a function (TFP'18 allows it; such a record is
            // itself not order zero).
            let from = Ty::Prim(self.random_prim());
            let to = Ty::Prim(self.random_prim());
            Ty::Record(vec![
                ("a".to_string(), Ty::Prim(self.random_prim())),
                ("b".to_string(), arrow(from, to)),
            ])
        } else {
            self.random_type(env, false, 1)
        };
        let value = self.expr(env, &bound, depth);
        let name = self.local_name(env);
        let mut pat = pat_var(&name);
        if self.choices.chance(1, 3) {
            let mut annotation = env.type_exp(&bound);
            if self.mutation_site(MutationKind::AnnotationMismatch) {
                annotation = env.type_exp(&other_prim_type(&bound));
            }
            pat = pat_ascribe(pat, annotation);
        }
        let mark = env.mark();
        env.bind(&name, bound.clone(), matches!(bound, Ty::Prim(_)));
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(pat, value, body)
    }

    fn let_destructure(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let first = self.random_type(env, false, 0);
        let second = self.random_type(env, false, 0);
        let as_record = self.choices.chance(1, 3);
        let bound = if as_record {
            Ty::Record(vec![
                ("a".to_string(), first.clone()),
                ("b".to_string(), second.clone()),
            ])
        } else {
            Ty::Tuple(vec![first.clone(), second.clone()])
        };
        let value = self.expr(env, &bound, depth);
        let mark = env.mark();
        let mut parts = Vec::new();
        for part in [&first, &second] {
            if self.choices.chance(1, 6) {
                parts.push(Pat::Wildcard { span: span() });
            } else {
                let name = self.fresh("x");
                env.bind(&name, part.clone(), matches!(part, Ty::Prim(_)));
                parts.push(pat_var(&name));
            }
        }
        let pat = if as_record {
            Pat::Record {
                fields: vec![
                    ("a".to_string(), parts.remove(0)),
                    ("b".to_string(), parts.remove(0)),
                ],
                span: span(),
            }
        } else {
            Pat::Tuple {
                elements: parts,
                span: span(),
            }
        };
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(pat, value, body)
    }

    fn let_fun(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let name = self.fresh("g");
        let param_count = self.choices.range(1, 2);
        let mut params = Vec::new();
        let mut param_types = Vec::new();
        let mark = env.mark();
        for _ in 0..param_count {
            let param_ty = self.random_type(env, true, 0);
            let param = self.fresh("y");
            params.push(pat_ascribe(pat_var(&param), env.type_exp(&param_ty)));
            param_types.push(param_ty);
        }
        let result = self.random_type(env, true, 0);
        for (param, param_ty) in params.iter().zip(&param_types) {
            if let Pat::Ascribe { pat, .. } = param {
                if let Pat::Var { name, .. } = pat.as_ref() {
                    env.bind(name, param_ty.clone(), false);
                }
            }
        }
        let value = self.expr(env, &result, depth);
        env.truncate(mark);
        let function_ty = param_types
            .iter()
            .rev()
            .fold(result.clone(), |acc, p| arrow(p.clone(), acc));
        env.bind(&name, function_ty, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        Expr::LetFun {
            name,
            type_params: Vec::new(),
            params,
            return_type: Some(env.type_exp(&result)),
            value: Box::new(value),
            body: Box::new(body),
            span: span(),
        }
    }

    /// `let [m] (ys: [m]t) = filter p xs in body`: binds an existential size.
    fn let_sized(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let element = Ty::Prim(self.random_prim());
        let xs = self.expr(env, &array(Size::Unknown, element.clone()), depth);
        let predicate = self.expr(env, &arrow(element.clone(), bool_ty()), depth);
        let size = self.fresh("m");
        let name = self.fresh("ys");
        let mark = env.mark();
        env.bind_size(&size);
        let bound = array(Size::Named(size.clone()), element);
        let pat = pat_ascribe(pat_var(&name), env.type_exp(&bound));
        env.bind(&name, bound, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        Expr::Let {
            sizes: vec![size],
            pat,
            value: Box::new(call("filter", vec![predicate, xs])),
            body: Box::new(body),
            span: span(),
        }
    }

    /// An array of constant size that aliases no variable (a literal, a
    /// `replicate` or a `map`), so that Futhark's uniqueness rules allow an
    /// in-place update of it.
    fn fresh_array(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(Size::Const(k), element) = ty else {
            unreachable!()
        };
        match self.choices.weighted(&[2, if *k <= 4 { 2 } else { 0 }, 1]) {
            1 => Expr::Array {
                elements: (0..*k).map(|_| self.expr(env, element, depth)).collect(),
                span: span(),
            },
            2 => {
                let input = self.random_type(env, true, 0);
                let xs = self.expr(env, &array(Size::Const(*k), input.clone()), depth);
                let function = self.expr(env, &arrow(input, (**element).clone()), depth);
                call("map", vec![function, xs])
            }
            _ => {
                let value = self.expr(env, element, depth);
                call("replicate", vec![i64_literal(*k), value])
            }
        }
    }

    /// `let xs = fresh in let xs[i] = v in body`.
    fn let_with(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let k = u64::from(self.choices.range(1, 3));
        let element = self.random_type(env, true, 0);
        let array_ty = array(Size::Const(k), element.clone());
        let initial = self.fresh_array(env, &array_ty, depth);
        let name = self.fresh("xs");
        let position = u64::from(self.choices.below(k as u32));
        let value = self.expr(env, &element, depth);
        let mark = env.mark();
        env.bind(&name, array_ty, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(
            pat_var(&name),
            initial,
            Expr::LetWith {
                name,
                name_span: span(),
                indices: vec![DimIndex::Index(i64_literal(position))],
                value: Box::new(value),
                body: Box::new(body),
                span: span(),
            },
        )
    }

    // -----------------------------------------------------------------------
    // Application

    /// Visible functions (and polymorphic values) that, applied to some
    /// number of arguments, give `ty`: (qualifiers, name, scheme, arity used,
    /// substitution).
    fn application_candidates(
        &self,
        env: &Env,
        ty: &Ty,
    ) -> Vec<(Vec<String>, String, Scheme, usize, Substitution)> {
        let mut out = Vec::new();
        for binding in env.visible() {
            let scheme = &binding.scheme;
            let (params, _) = scheme.ty.uncurry();
            let mut remaining = &scheme.ty;
            for arity in 0..=params.len() {
                if arity > 0 || !scheme.is_mono() {
                    let mut substitution = Substitution::default();
                    if unify(scheme, remaining, ty, &mut substitution) {
                        out.push((
                            binding.qualifiers.clone(),
                            binding.name.clone(),
                            scheme.clone(),
                            arity,
                            substitution,
                        ));
                    }
                }
                if let Ty::Arrow(_, to) = remaining {
                    remaining = to;
                }
            }
        }
        out.retain(|(_, _, scheme, arity, substitution)| {
            let (params, _) = scheme.ty.uncurry();
            params[..*arity].iter().all(|p| {
                let instantiated = substitution.apply(p).map_opaque(&|t| match t {
                    Ty::Param(name) | Ty::LiftedParam(name)
                        if scheme.type_params.contains(name) =>
                    {
                        Some(i32_ty())
                    }
                    _ => None,
                });
                let instantiated = instantiated.map_sizes(&|size| match size {
                    Size::Named(name) if scheme.size_params.contains(name) => Size::Const(1),
                    other => other.clone(),
                });
                env.inhabited(&instantiated)
            })
        });
        out
    }

    fn application(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let candidates = self.application_candidates(env, ty);
        let index = self.choices.below(candidates.len() as u32) as usize;
        let (qualifiers, name, scheme, arity, mut substitution) = candidates[index].clone();
        for type_param in &scheme.type_params {
            if !substitution.types.iter().any(|(n, _)| n == type_param) {
                let lifted = Ty::LiftedParam(type_param.clone());
                let is_lifted = scheme.ty.map_opaque(&|t| (*t == lifted).then(i32_ty)) != scheme.ty;
                let chosen = if is_lifted && self.choices.chance(1, 2) {
                    // A lifted type parameter may stand for a function type.
                    arrow(Ty::Prim(self.random_prim()), Ty::Prim(self.random_prim()))
                } else {
                    Ty::Prim(self.random_prim())
                };
                substitution.types.push((type_param.clone(), chosen));
            }
        }
        for size_param in &scheme.size_params {
            if !substitution.sizes.iter().any(|(n, _)| n == size_param) {
                let chosen = self.known_size(env);
                substitution.sizes.push((size_param.clone(), chosen));
            }
        }
        let (params, _) = scheme.ty.uncurry();
        let params: Vec<Ty> = params.into_iter().cloned().collect();
        let mut arguments = Vec::new();
        for param in &params[..arity] {
            let instantiated = substitution.apply(param);
            if !env.inhabited(&instantiated) {
                // An opaque parameter type without a witness here: fall back.
                return self.leaf(env, ty);
            }
            let mut argument = self.expr(env, &instantiated, depth);
            if !param.has_opaque_part() && self.mutation_site(MutationKind::ArgumentMismatch) {
                argument = wrong_literal(&instantiated);
            }
            if let Ty::Param(_) = param {
                if self.mutation_site(MutationKind::FunctionForUnliftedParameter) {
                    let name = self.fresh("p");
                    argument = lambda(
                        vec![pat_ascribe(pat_var(&name), env.type_exp(&i32_ty()))],
                        None,
                        var(&name),
                    );
                }
            }
            if let Ty::Abstract(path) = &instantiated {
                if let Some((_, carrier)) = env.carriers.iter().find(|(p, _)| p == path) {
                    let carrier = carrier.clone();
                    if self.mutation_site(MutationKind::AbstractTypeLeak) {
                        argument = self.leaf(env, &carrier);
                    }
                }
            }
            arguments.push(argument);
        }
        let is_operator = spec::syntax::operators::is_operator_name(&name);
        if arity == 2 && (is_operator || self.choices.chance(1, 6)) {
            let op = if self.mutation_site(MutationKind::UnboundVariable) {
                BinOp::Backtick(qual(&[], "unbound_variable"))
            } else if is_operator {
                BinOp::Symbol(qual(&qualifiers, &name))
            } else {
                BinOp::Backtick(qual(&qualifiers, &name))
            };
            let rhs = arguments.pop().expect("two arguments");
            let lhs = arguments.pop().expect("two arguments");
            return Expr::BinOp {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                span: span(),
            };
        }
        // Operators as values become sections: `(+^) x`.
        let function = self.variable_reference(&qualifiers, &name);
        if arity >= 1 && !is_operator && self.choices.chance(1, 8) {
            let last = arguments.pop().expect("at least one argument");
            return binop("|>", last, apply_all(function, arguments));
        }
        apply_all(function, arguments)
    }

    // -----------------------------------------------------------------------
    // Control flow

    fn match_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let sums: Vec<Ty> = env
            .sum_types
            .iter()
            .filter(|t| env.inhabited(t))
            .cloned()
            .collect();
        let form = self
            .choices
            .weighted(&[2, if sums.is_empty() { 0 } else { 4 }, 1]);
        match form {
            1 => {
                let index = self.choices.below(sums.len() as u32) as usize;
                let sum = sums[index].clone();
                let Ty::Sum { constructors, .. } = &sum else {
                    unreachable!()
                };
                let scrutinee = self.expr(env, &sum, depth);
                let mut cases = Vec::new();
                let wildcard_after = if constructors.len() > 1 && self.choices.chance(1, 3) {
                    self.choices.range(1, constructors.len() as u32 - 1) as usize
                } else {
                    constructors.len()
                };
                for (name, payload) in constructors.iter().take(wildcard_after) {
                    let mark = env.mark();
                    let mut patterns = Vec::new();
                    for part in payload {
                        if self.choices.chance(1, 5) {
                            patterns.push(Pat::Wildcard { span: span() });
                        } else {
                            let variable = self.fresh("v");
                            env.bind(&variable, part.clone(), matches!(part, Ty::Prim(_)));
                            patterns.push(pat_var(&variable));
                        }
                    }
                    let body = self.expr(env, ty, depth);
                    env.truncate(mark);
                    cases.push(MatchCase {
                        pat: Pat::Constructor {
                            name: name.clone(),
                            payload: patterns,
                            span: span(),
                        },
                        body,
                        span: span(),
                    });
                }
                if wildcard_after < constructors.len() {
                    let body = self.expr(env, ty, depth);
                    cases.push(MatchCase {
                        pat: Pat::Wildcard { span: span() },
                        body,
                        span: span(),
                    });
                }
                if self.mutation_site(MutationKind::UnknownConstructor) {
                    let body = self.leaf(env, ty);
                    cases.insert(
                        0,
                        MatchCase {
                            pat: Pat::Constructor {
                                name: "not_a_constructor".to_string(),
                                payload: Vec::new(),
                                span: span(),
                            },
                            body,
                            span: span(),
                        },
                    );
                }
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases,
                    span: span(),
                }
            }
            2 => {
                let first = self.random_type(env, false, 0);
                let second = self.random_type(env, false, 0);
                let scrutinee =
                    self.expr(env, &Ty::Tuple(vec![first.clone(), second.clone()]), depth);
                let mark = env.mark();
                let a = self.fresh("v");
                let b = self.fresh("v");
                env.bind(&a, first.clone(), matches!(first, Ty::Prim(_)));
                env.bind(&b, second.clone(), matches!(second, Ty::Prim(_)));
                let body = self.expr(env, ty, depth);
                env.truncate(mark);
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases: vec![MatchCase {
                        pat: Pat::Tuple {
                            elements: vec![pat_var(&a), pat_var(&b)],
                            span: span(),
                        },
                        body,
                        span: span(),
                    }],
                    span: span(),
                }
            }
            _ => {
                let prim = if self.choices.chance(1, 3) {
                    PrimType::Bool
                } else {
                    PrimType::I32
                };
                let scrutinee = self.expr(env, &Ty::Prim(prim), depth);
                let mut cases = Vec::new();
                let literal_cases = self.choices.range(1, 2);
                for k in 0..literal_cases {
                    let literal = match prim {
                        PrimType::Bool => Literal::Bool(k == 1),
                        _ => Literal::Int {
                            value: u64::from(k),
                            suffix: Some(IntType::I32),
                        },
                    };
                    let body = self.expr(env, ty, depth);
                    cases.push(MatchCase {
                        pat: Pat::Literal {
                            negative: false,
                            literal,
                            span: span(),
                        },
                        body,
                        span: span(),
                    });
                }
                let body = self.expr(env, ty, depth);
                cases.push(MatchCase {
                    pat: Pat::Wildcard { span: span() },
                    body,
                    span: span(),
                });
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases,
                    span: span(),
                }
            }
        }
    }

    /// A bounded loop: `for i < k` with a small constant `k`, `for x in xs`,
    /// or `while` with a counter that stops after a constant number of rounds.
    fn loop_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let init = self.expr(env, ty, depth);
        let accumulator = self.fresh("acc");
        let mark = env.mark();
        let form = self.choices.weighted(&[3, 2, 1]);
        let (pat, init, form, body) = match form {
            0 => {
                let counter = self.fresh("i");
                let bound = u64::from(self.choices.range(1, 4));
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&counter, i64_ty(), false);
                env.index_bases.push(counter.clone());
                let body = self.expr(env, ty, depth);
                (
                    pat_ascribe(pat_var(&accumulator), env.type_exp(ty)),
                    init,
                    LoopForm::For {
                        var: counter,
                        var_span: span(),
                        bound: Box::new(i64_literal(bound)),
                    },
                    body,
                )
            }
            1 => {
                let element = self.random_type(env, true, 0);
                let xs = self.expr(env, &array(Size::Unknown, element.clone()), depth);
                let item = self.fresh("e");
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&item, element, false);
                let body = self.expr(env, ty, depth);
                (
                    pat_var(&accumulator),
                    init,
                    LoopForm::ForIn {
                        pat: pat_var(&item),
                        array: Box::new(xs),
                    },
                    body,
                )
            }
            _ => {
                let counter = self.fresh("c");
                let rounds = u64::from(self.choices.range(1, 4));
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&counter, i32_ty(), false);
                let step = self.expr(env, ty, depth);
                let next = binop("+", var(&counter), literal(PrimType::I32, 1));
                (
                    Pat::Tuple {
                        elements: vec![
                            pat_ascribe(pat_var(&accumulator), env.type_exp(ty)),
                            pat_var(&counter),
                        ],
                        span: span(),
                    },
                    tuple(vec![init, literal(PrimType::I32, 0)]),
                    LoopForm::While {
                        condition: Box::new(binop(
                            "<",
                            var(&counter),
                            literal(PrimType::I32, rounds),
                        )),
                    },
                    tuple(vec![step, next]),
                )
            }
        };
        env.truncate(mark);
        let is_while = matches!(form, LoopForm::While { .. });
        let looped = Expr::Loop {
            pat,
            init: Some(Box::new(init)),
            form,
            body: Box::new(body),
            span: span(),
        };
        if is_while {
            // The loop returns (accumulator, counter): keep the accumulator.
            Expr::Project {
                expr: Box::new(looped),
                field: "0".to_string(),
                span: span(),
            }
        } else {
            looped
        }
    }

    fn open_in(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let index = self.choices.below(env.structures.len() as u32) as usize;
        let structure = env.structures[index].clone();
        let mark = env.mark();
        for (name, scheme) in &structure.values {
            env.bind_scheme(Vec::new(), name, scheme.clone());
        }
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let (name, qualifiers) = structure.path.split_last().expect("structure path");
        Expr::OpenIn {
            module: qual(qualifiers, name),
            body: Box::new(body),
            span: span(),
        }
    }

    // -----------------------------------------------------------------------
    // Primitive operations

    fn arith(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Prim(prim) = ty else { unreachable!() };
        let ops: &[&str] = if prim.is_float() {
            &["+", "-", "*", "/"]
        } else {
            &["+", "-", "*", "&", "|", "^", "/", "%"]
        };
        let op = ops[self.choices.below(ops.len() as u32) as usize];
        let lhs = self.expr(env, ty, depth);
        let mut rhs = if !prim.is_float() && (op == "/" || op == "%") {
            // Integer division only by a positive constant: never by zero.
            literal(*prim, u64::from(self.choices.range(2, 9)))
        } else {
            self.expr(env, ty, depth)
        };
        if self.mutation_site(MutationKind::OperandMismatch) {
            rhs = wrong_literal(ty);
        }
        binop(op, lhs, rhs)
    }

    fn convert(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Prim(target) = ty else { unreachable!() };
        let source = if self.choices.chance(1, 6) {
            if target.is_float() {
                PrimType::F32
            } else {
                PrimType::Bool
            }
        } else {
            // Integers convert to anything; floats only to floats.
            let candidate = self.random_numeric();
            if candidate.is_float() && !target.is_float() {
                PrimType::I32
            } else {
                candidate
            }
        };
        let argument = self.expr(env, &Ty::Prim(source), depth);
        apply(
            qualified_var(&[target.name().to_string()], source.name()),
            argument,
        )
    }

    /// An associative operator with its neutral element for `element`.
    fn scan_operator(element: &Ty) -> Option<(&'static str, u64)> {
        match element {
            Ty::Prim(PrimType::Bool) => Some(("&&", 1)),
            Ty::Prim(prim) if prim.is_float() => Some(("+", 0)),
            Ty::Prim(_) => Some(("+", 0)),
            _ => None,
        }
    }

    fn operator_function(&mut self, env: &Env, element: &Ty) -> (Expr, Expr) {
        let Ty::Prim(prim) = element else {
            unreachable!()
        };
        let (op, neutral) = match prim {
            PrimType::Bool => {
                if self.choices.chance(1, 2) {
                    ("||", 0)
                } else {
                    ("&&", 1)
                }
            }
            p if p.is_float() => ("+", 0),
            _ => {
                if self.choices.chance(1, 3) {
                    ("*", 1)
                } else {
                    ("+", 0)
                }
            }
        };
        let function = if self.choices.chance(1, 3) {
            let a = self.fresh("a");
            let b = self.fresh("b");
            let annotation = env.type_exp(element);
            lambda(
                vec![
                    pat_ascribe(pat_var(&a), annotation.clone()),
                    pat_ascribe(pat_var(&b), annotation),
                ],
                None,
                binop(op, var(&a), var(&b)),
            )
        } else {
            op_section(op)
        };
        (function, literal(*prim, neutral))
    }

    fn reduce(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let xs = self.expr(env, &array(Size::Unknown, ty.clone()), depth);
        let (function, neutral) = self.operator_function(env, ty);
        if self.choices.chance(1, 5) {
            binop("|>", xs, call("reduce", vec![function, neutral]))
        } else {
            call("reduce", vec![function, neutral, xs])
        }
    }

    fn scan(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(_, element) = ty else {
            unreachable!()
        };
        let xs = self.expr(env, ty, depth);
        let (function, neutral) = self.operator_function(env, element);
        call("scan", vec![function, neutral, xs])
    }

    /// A non-negative `i64` for indexing: a constant, a loop counter or a size.
    fn index_base(&mut self, env: &Env) -> Expr {
        if !env.index_bases.is_empty() && self.choices.chance(1, 2) {
            let index = self.choices.below(env.index_bases.len() as u32) as usize;
            let name = &env.index_bases[index];
            if env.is_visible(name) {
                return var(name);
            }
        }
        i64_literal(u64::from(self.choices.below(4)))
    }

    /// `xs[i]` in bounds: a constant below a constant size, or a guarded
    /// `if length xs > 0 then xs[i % length xs] else d` (unguarded in
    /// may-fail mode).
    fn index_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let size = if self.choices.chance(1, 2) {
            Size::Const(u64::from(self.choices.range(1, 3)))
        } else {
            Size::Unknown
        };
        let source_ty = array(size.clone(), ty.clone());
        let source = self.expr(env, &source_ty, depth);
        if let Size::Const(k) = size {
            let position = u64::from(self.choices.below(k as u32));
            return index(source, i64_literal(position));
        }
        let base = self.index_base(env);
        if self.config.may_fail {
            return index(source, base);
        }
        let name = self.fresh("arr");
        let length = call("length", vec![var(&name)]);
        let guarded = if_then_else(
            binop(">", length.clone(), i64_literal(0)),
            index(var(&name), binop("%", base, length)),
            self.leaf(env, ty),
        );
        let_in(pat_var(&name), source, guarded)
    }

    fn slice(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let source = self.expr(env, ty, depth);
        let name = self.fresh("arr");
        let half = binop("/", call("length", vec![var(&name)]), i64_literal(2));
        let (start, end) = if self.choices.chance(1, 2) {
            (Some(half), None)
        } else {
            (None, Some(half))
        };
        let sliced = Expr::Index {
            array: Box::new(var(&name)),
            indices: vec![DimIndex::Slice {
                start,
                end,
                stride: None,
            }],
            span: span(),
        };
        let_in(pat_var(&name), source, sliced)
    }

    // -----------------------------------------------------------------------
    // Arrays

    fn map_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(size, element) = ty else {
            unreachable!()
        };
        let input = match self.choices.weighted(&[6, 1, 1, 1]) {
            0 => self.random_type(env, true, 1),
            // Inputs a projection or index section can map from.
            1 | 2 => {
                let other = self.random_type(env, true, 0);
                Ty::Tuple(vec![other, (**element).clone()])
            }
            _ => array(
                Size::Const(u64::from(self.choices.range(1, 3))),
                (**element).clone(),
            ),
        };
        let xs = self.expr(env, &array(size.clone(), input.clone()), depth);
        let function = self.expr(env, &arrow(input, (**element).clone()), depth);
        if self.choices.chance(1, 5) {
            binop("|>", xs, call("map", vec![function]))
        } else {
            call("map", vec![function, xs])
        }
    }

    fn map2_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(size, element) = ty else {
            unreachable!()
        };
        let size = match size {
            Size::Unknown => self.known_size(env),
            other => other.clone(),
        };
        let first = self.random_type(env, true, 0);
        let second = self.random_type(env, true, 0);
        let xs = self.expr(env, &array(size.clone(), first.clone()), depth);
        let mut ys = self.expr(env, &array(size.clone(), second.clone()), depth);
        if let Size::Const(k) = size {
            if self.mutation_site(MutationKind::SizeMismatch) {
                let other = self.leaf(env, &second);
                ys = call("replicate", vec![i64_literal(k + 1), other]);
            }
        }
        let function = self.expr(
            env,
            &arrow(first, arrow(second, (**element).clone())),
            depth,
        );
        call("map2", vec![function, xs, ys])
    }

    // -----------------------------------------------------------------------
    // Functions

    fn lambda_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Arrow(from, to) = ty else {
            unreachable!()
        };
        let mark = env.mark();
        let mut params = Vec::new();
        let first = self.fresh("p");
        env.bind(&first, (**from).clone(), false);
        params.push(pat_ascribe(pat_var(&first), env.type_exp(from)));
        let mut result: &Ty = to;
        if let Ty::Arrow(second_from, second_to) = to.as_ref() {
            if self.choices.chance(2, 3) {
                let second = self.fresh("p");
                env.bind(&second, (**second_from).clone(), false);
                params.push(pat_ascribe(pat_var(&second), env.type_exp(second_from)));
                result = second_to;
            }
        }
        let return_type = if result.order_zero() && self.choices.chance(1, 4) {
            Some(env.type_exp(result))
        } else {
            None
        };
        let body = self.expr(env, result, depth);
        env.truncate(mark);
        self.lambda_site(env, ty, lambda(params, return_type, body))
    }

    /// Mutation sites for a function-valued expression: the TFP'18 orderZero
    /// premises (no function from `if`, from a loop, or in an array).
    fn lambda_site(&mut self, env: &Env, ty: &Ty, function: Expr) -> Expr {
        if self.mutation_site(MutationKind::FunctionFromIf) {
            return if_then_else(literal(PrimType::Bool, 1), function.clone(), function);
        }
        if self.mutation_site(MutationKind::FunctionFromLoop) {
            let name = self.fresh("h");
            return Expr::Loop {
                pat: pat_ascribe(pat_var(&name), env.type_exp(ty)),
                init: Some(Box::new(function)),
                form: LoopForm::For {
                    var: self.fresh("i"),
                    var_span: span(),
                    bound: Box::new(i64_literal(1)),
                },
                body: Box::new(var(&name)),
                span: span(),
            };
        }
        if self.mutation_site(MutationKind::FunctionInArray) {
            return index(
                Expr::Array {
                    elements: vec![function.clone(), function],
                    span: span(),
                },
                i64_literal(0),
            );
        }
        function
    }

    fn section_possible(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Arrow(from, to) => match (from.as_ref(), to.as_ref()) {
                (Ty::Prim(a), Ty::Prim(b)) => {
                    a == b && *a != PrimType::Bool || *b == PrimType::Bool
                }
                (Ty::Prim(a), Ty::Arrow(b, c)) => {
                    matches!((b.as_ref(), c.as_ref()), (Ty::Prim(b), Ty::Prim(c)) if a == b && b == c)
                }
                (Ty::Tuple(elements), result) => elements.iter().any(|t| t == result),
                (Ty::Record(fields), result) => fields.iter().any(|(_, t)| t == result),
                (Ty::Array(Size::Const(k), element), result) => *k >= 1 && **element == *result,
                _ => false,
            },
            _ => false,
        }
    }

    /// Operator sections `(+)`, `(x +)`, `(+ y)`, `(< y)`, projection
    /// sections `(.f)` and index sections `(.[i])`.
    fn section(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Arrow(from, to) = ty else {
            unreachable!()
        };
        let section = match (from.as_ref(), to.as_ref()) {
            (Ty::Prim(a), Ty::Arrow(..)) => {
                let op = if a.is_float() || *a == PrimType::Bool {
                    "=="
                } else {
                    "+"
                };
                let op = if *a == PrimType::Bool {
                    "&&"
                } else if a.is_float() {
                    "*"
                } else {
                    op
                };
                op_section(op)
            }
            (Ty::Prim(a), Ty::Prim(b)) if *b == PrimType::Bool => {
                let ops: &[&str] = if *a == PrimType::Bool {
                    &["==", "!="]
                } else {
                    &["<", ">=", "=="]
                };
                let op = ops[self.choices.below(ops.len() as u32) as usize];
                let operand = self.expr(env, from, depth);
                if self.choices.chance(1, 2) {
                    Expr::RightSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        right: Box::new(operand),
                        span: span(),
                    }
                } else {
                    Expr::LeftSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        left: Box::new(operand),
                        span: span(),
                    }
                }
            }
            (Ty::Prim(_), Ty::Prim(_)) => {
                let op = ["+", "*", "-"][self.choices.below(3) as usize];
                let operand = self.expr(env, from, depth);
                if op == "-" || self.choices.chance(1, 2) {
                    Expr::LeftSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        left: Box::new(operand),
                        span: span(),
                    }
                } else {
                    Expr::RightSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        right: Box::new(operand),
                        span: span(),
                    }
                }
            }
            (Ty::Tuple(elements), result) => {
                let position = elements.iter().position(|t| t == result).expect("field");
                Expr::ProjectSection {
                    fields: vec![position.to_string()],
                    span: span(),
                }
            }
            (Ty::Record(fields), result) => {
                let (name, _) = fields.iter().find(|(_, t)| t == result).expect("field");
                Expr::ProjectSection {
                    fields: vec![name.clone()],
                    span: span(),
                }
            }
            (Ty::Array(Size::Const(k), _), _) => {
                let position = u64::from(self.choices.below(*k as u32));
                Expr::IndexSection {
                    indices: vec![DimIndex::Index(i64_literal(position))],
                    span: span(),
                }
            }
            _ => unreachable!("section_possible admitted {ty:?}"),
        };
        section
    }
}

/// The surface expression for a size.
pub fn size_expr(size: &Size) -> Expr {
    match size {
        Size::Const(k) => i64_literal(*k),
        Size::Named(name) => var(name),
        Size::Unknown => i64_literal(1),
    }
}

/// A literal whose type certainly differs from `ty`.
pub fn wrong_literal(ty: &Ty) -> Expr {
    if *ty == bool_ty() {
        literal(PrimType::I32, 1)
    } else {
        literal(PrimType::Bool, 1)
    }
}

/// A primitive type certainly different from `ty`.
pub fn other_prim_type(ty: &Ty) -> Ty {
    if *ty == bool_ty() {
        i32_ty()
    } else {
        bool_ty()
    }
}
