//! A module-free front end: surface programs made of `def`, `entry` and
//! `type` declarations elaborate directly into the core (TFP'18 §2 and the
//! extensions of [`crate::core::syntax`]). Programs with module constructs go
//! through the ICFP'18 static interpretation instead
//! ([`super::tfp18_core`]), which elaborates each core declaration
//! with this [`Elaborator`] (after the prelude, with the module environment
//! bound by path). Here, module constructs (`module`, `open`, `import`, `local`,
//! qualified names other than the primitive-type stand-ins below) are
//! rejected with a located "needs the module calculus" diagnostic.
//!
//! Types are inferred by unification (metavariables [`Type::Meta`] with
//! constraints: a numeric class with a default for literals and overloaded
//! operators, required record fields, required constructors). Top-level
//! declarations are let-polymorphic over their written type parameters and
//! over metavariables left unconstrained (as unlifted parameters); local
//! functions are monomorphic. Size parameters are bound from argument shapes
//! and checked at run time (TFP'18 §5.2) by [`ExprKind::Assert`].
//!
//! The SOACs and array functions are core intrinsics or core forms (the
//! documented list in [`INTRINSICS`]); a partial application of one is
//! η-expanded. `t.f` for a primitive type `t` (`f32.sqrt`, `i64.i32`, …)
//! names a module of the numeric prelude (`spec/prelude/numeric.fut`),
//! which only the module calculus knows: here it is a diagnostic with code
//! [`NEEDS_MODULE_CALCULUS`], on which the pipeline sends the program
//! through the module calculus. The prelude's intrinsics (`__prim_…`) are
//! bound only while it is elaborated. The top-level functions of
//! `spec/prelude/toplevel.fut` (`id`, `flip`, `curry`, `all`, `foldl`, …)
//! are elaborated before every program.

use super::entry_points::entry_point;
use crate::core::syntax::{
    map_expr_types, BinOp as CoreBinOp, EntryPoint, Expr, ExprKind, Intrinsic, Lambda, LoopForm,
    MathDomain, MathFun, Name, Pat as CorePat, PrimType, PrimValue, Program, ReduceKind, Type,
    TypeParam, UnOp, Uniqueness, ValueDec,
};
use crate::core::value::type_name;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use spec::syntax::ast::{
    self, BinOp, Dec, DimIndex, Liftedness, Literal, LoopForm as AstLoopForm, Pat, QualName,
    RangeEnd, SizeExp, TypeArg, TypeExp, ValueBindKind,
};
use spec::syntax::uniqueness::DeclaredUniqueness;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// The SOACs and array functions available without a prelude, with their
/// arities.
pub const INTRINSICS: &[(&str, usize)] = &[
    ("map", 2),
    ("map1", 2),
    ("map2", 3),
    ("map3", 4),
    ("map4", 5),
    ("map5", 6),
    ("reduce", 3),
    ("reduce_comm", 3),
    ("scan", 3),
    ("filter", 2),
    ("partition", 2),
    ("reduce_by_index", 5),
    ("scatter", 3),
    ("iota", 1),
    ("replicate", 2),
    ("zip", 2),
    ("zip3", 3),
    ("zip4", 4),
    ("zip5", 5),
    ("unzip", 1),
    ("unzip3", 1),
    ("unzip4", 1),
    ("unzip5", 1),
    ("length", 1),
    ("concat", 2),
    ("flatten", 1),
    ("unflatten", 3),
    ("transpose", 1),
    ("reverse", 1),
    ("rotate", 2),
    // `assert c e` (the parser's `spec::syntax::ast::ASSERT`): the core's
    // `Assert` (TFP'18's run-time checks, E-Assert / E-AssertErr).
    (ast::ASSERT, 2),
];

/// The source of the top-level prelude functions.
pub const PRELUDE: &str = include_str!("../../../spec/prelude/toplevel.fut");

/// The source of the numeric prelude: the module types `numeric`, `integral`,
/// `real`, `float` and the modules `i8 … f64`, `bool`. Module-level source:
/// it is the initial basis of the module calculus' TFP'18 core instance
/// ([`super::tfp18_core`]).
pub const NUMERIC_PRELUDE: &str = include_str!("../../../spec/prelude/numeric.fut");

/// How the numeric prelude's intrinsics begin (the list is in the header of
/// `spec/prelude/numeric.fut`).
pub const PRELUDE_INTRINSIC_PREFIX: &str = "__prim_";

/// The code of the diagnostic for a qualified name in a module-free
/// program: [`super::pipeline::compile_with`] then sends the program
/// through the module calculus, where the numeric modules live.
pub const NEEDS_MODULE_CALCULUS: &str = spec::diagnostic::codes::NEEDS_MODULE_CALCULUS;

fn error(span: Span, message: impl Into<String>) -> Diagnostic {
    let message = message.into();
    Diagnostic::error(message.clone())
        .with_code("elaboration")
        .with_primary(span, message)
}

type EResult<T> = Result<T, Diagnostic>;

/// Constraints on a metavariable.
#[derive(Clone, Debug, Default)]
struct Constraint {
    /// The primitive types it may be, and the default.
    prims: Option<(BTreeSet<PrimType>, PrimType)>,
    fields: BTreeMap<Name, Type>,
    constructors: BTreeMap<Name, Vec<Type>>,
    span: Span,
}

#[derive(Clone, Debug)]
enum Binding {
    /// A local variable (or size) with its core name and type.
    Local(Name, Type),
    /// A top-level declaration with its type scheme.
    Top(Name, Vec<TypeParam>, Type),
    /// A local function with type parameters, elaborated anew at every use
    /// (SPEC_NOTES TFP18-17).
    LocalPoly(Rc<LocalPolyFunction>),
}

/// A local `let f 't … = …`: its definition and the scope it was defined
/// in. Every use elaborates the definition in that scope with fresh
/// unknowns for the type parameters, as its own instance (a `let` at the
/// definition's place), as TFP'18 §5.1 monomorphises a top-level function.
#[derive(Debug)]
struct LocalPolyFunction {
    /// Which definition (the key of its instances).
    id: usize,
    name: Name,
    type_params: Vec<ast::TypeParam>,
    params: Vec<Pat>,
    return_type: Option<TypeExp>,
    value: ast::Expr,
    span: Span,
    values: imbl::OrdMap<Name, Binding>,
    type_vars: imbl::OrdMap<Name, Type>,
}

/// The qualifier of a primitive type's name in a closed abbreviation
/// definition ([`Elaborator::close_type_exp`]); no surface name has it.
const PRIMITIVE_QUALIFIER: &str = "%primitive";

#[derive(Clone, Debug)]
struct TypeAbbrev {
    params: Vec<ast::TypeParam>,
    definition: TypeExp,
}

/// A function as a λ: its parameters, body and result type.
type PeeledFunction = (Vec<(Name, Type)>, Expr, Type);

/// The elaborator's state.
#[derive(Clone)]
pub struct Elaborator {
    metas: Vec<(Option<Type>, Constraint)>,
    counter: usize,
    values: imbl::OrdMap<Name, Binding>,
    types: imbl::OrdMap<Name, TypeAbbrev>,
    type_vars: imbl::OrdMap<Name, Type>,
    literals: Vec<(Literal, bool)>,
    decs: Vec<ValueDec>,
    entries: Vec<EntryPoint>,
    /// Values and types reached through module paths (`M.x`, `M.t`), keyed by
    /// the dotted path: bound by the module calculus' TFP'18 core instance
    /// ([`super::tfp18_core`]).
    qualified: imbl::OrdMap<String, Binding>,
    qualified_types: imbl::OrdMap<String, Type>,
    /// Whether the numeric prelude's intrinsics are bound.
    prelude_intrinsics: bool,
    /// The instances of the local polymorphic functions being elaborated,
    /// by [`LocalPolyFunction::id`]: core name and definition.
    local_instances: HashMap<usize, Vec<(Name, Expr)>>,
}

/// Elaborates a module-free program (after the prelude) into a core program.
pub fn elaborate(program: &ast::Program, prelude: Option<&ast::Program>) -> EResult<Program> {
    let mut elaborator = Elaborator::new();
    if let Some(prelude) = prelude {
        for dec in &prelude.decs {
            elaborator.dec(dec, false)?;
        }
    }
    for dec in &program.decs {
        elaborator.dec(dec, true)?;
    }
    // Extension (SPEC_NOTES TFP18-19): distinct constant sizes that must be
    // equal are a compile-time error, as in Futhark.
    super::constant_sizes::check_program(program)?;
    Ok(Program {
        decs: elaborator.decs,
        entries: elaborator.entries,
    })
}

/// Parses the prelude into file `file` of a source map.
pub fn parse_prelude(file: FileId) -> EResult<ast::Program> {
    spec::syntax::parse_program(file, PRELUDE)
}

fn numeric() -> BTreeSet<PrimType> {
    PrimType::ALL
        .into_iter()
        .filter(|t| *t != PrimType::Bool)
        .collect()
}
fn integral() -> BTreeSet<PrimType> {
    PrimType::ALL
        .into_iter()
        .filter(|t| t.is_integer())
        .collect()
}
/// `m.n` as written.
fn long_module_name(name: &QualName) -> String {
    name.qualifiers
        .iter()
        .chain(std::iter::once(&name.name))
        .cloned()
        .collect::<Vec<_>>()
        .join(".")
}

fn floats() -> BTreeSet<PrimType> {
    [PrimType::F32, PrimType::F64].into_iter().collect()
}
fn all_prims() -> BTreeSet<PrimType> {
    PrimType::ALL.into_iter().collect()
}

/// The run-time error of a slice update whose new value does not have one
/// row per selected index (the optimising compiler's wording).
const SLICE_UPDATE_SHAPE_MISMATCH: &str =
    "Size mismatch: the new value's shape does not match the updated part.";

fn lit_expr(p: PrimValue, span: Span) -> Expr {
    Expr::new(ExprKind::Literal(p), span)
}

fn i64_lit(n: i64, span: Span) -> Expr {
    lit_expr(PrimValue::I64(n), span)
}

fn binop(op: CoreBinOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr::new(
        ExprKind::BinOp {
            op,
            lhs: lhs.boxed(),
            rhs: rhs.boxed(),
        },
        span,
    )
}

fn let_in(name: Name, value: Expr, body: Expr, span: Span) -> Expr {
    Expr::new(
        ExprKind::Let {
            name,
            value: value.boxed(),
            body: body.boxed(),
        },
        span,
    )
}

fn lambda(param: Name, param_type: Type, body: Expr, span: Span) -> Expr {
    declared_lambda(param, param_type, body, Uniqueness::Nonunique, span)
}

/// Extension (proofs-notes/uniqueness.md): a λ whose parameter has a
/// declared uniqueness.
fn declared_lambda(
    param: Name,
    param_type: Type,
    body: Expr,
    param_uniqueness: Uniqueness,
    span: Span,
) -> Expr {
    Expr::new(
        ExprKind::Lambda(Rc::new(Lambda {
            param,
            param_type,
            body,
            param_uniqueness,
            result_uniqueness: Uniqueness::Nonunique,
        })),
        span,
    )
}

/// Extension (proofs-notes/uniqueness.md): `e` with the declared result
/// uniqueness set on its last λ (after `params` λs).
fn with_result_uniqueness(e: Expr, params: usize, result: Uniqueness) -> Expr {
    if params == 0 || result == Uniqueness::Nonunique {
        return e;
    }
    let Expr { kind, span } = e;
    match kind {
        ExprKind::Lambda(l) => {
            let mut lambda = (*l).clone();
            if params == 1 {
                lambda.result_uniqueness = result;
            } else {
                lambda.body = with_result_uniqueness(lambda.body, params - 1, result);
            }
            Expr::new(ExprKind::Lambda(Rc::new(lambda)), span)
        }
        kind => Expr::new(kind, span),
    }
}

fn apply(function: Expr, argument: Expr, span: Span) -> Expr {
    Expr::new(
        ExprKind::Apply {
            function: function.boxed(),
            argument: argument.boxed(),
        },
        span,
    )
}

fn project(record: Expr, label: impl Into<Name>, span: Span) -> Expr {
    Expr::new(
        ExprKind::Project {
            record: record.boxed(),
            label: label.into(),
        },
        span,
    )
}

impl Default for Elaborator {
    fn default() -> Self {
        Self::new()
    }
}

impl Elaborator {
    pub fn new() -> Elaborator {
        Elaborator {
            metas: Vec::new(),
            counter: 0,
            values: imbl::OrdMap::new(),
            types: imbl::OrdMap::new(),
            type_vars: imbl::OrdMap::new(),
            literals: Vec::new(),
            decs: Vec::new(),
            entries: Vec::new(),
            qualified: imbl::OrdMap::new(),
            qualified_types: imbl::OrdMap::new(),
            prelude_intrinsics: false,
            local_instances: HashMap::new(),
        }
    }

    /// Makes the numeric prelude's intrinsics (`__prim_…`) visible: only
    /// while `spec/prelude/numeric.fut` is elaborated.
    pub fn allow_prelude_intrinsics(&mut self) {
        self.prelude_intrinsics = true;
    }

    /// An elaborator that has elaborated the prelude.
    pub fn with_prelude(prelude: &ast::Program) -> EResult<Elaborator> {
        let mut elaborator = Elaborator::new();
        for dec in &prelude.decs {
            elaborator.dec(dec, false)?;
        }
        Ok(elaborator)
    }

    /// The core declarations elaborated so far.
    pub fn decs(&self) -> &[ValueDec] {
        &self.decs
    }

    /// Γ of every top-level core name bound so far (declarations, and the
    /// values the module calculus bound by path), for the TFP'18 typing of
    /// what it elaborates.
    /// The scheme `core_type_env` gives the core name `core` (without
    /// building the whole of Γ).
    pub fn core_scheme(&self, core: &str) -> Option<crate::core::typing::Scheme> {
        let bound = self
            .values
            .values()
            .chain(self.qualified.values())
            .filter_map(|binding| match binding {
                Binding::Top(name, params, ty) if name == core => Some((params, ty)),
                _ => None,
            })
            .next_back();
        let declared = || {
            self.decs
                .iter()
                .rev()
                .find(|dec| dec.name == core)
                .map(|dec| (&dec.type_params, &dec.ty))
        };
        bound
            .or_else(declared)
            .map(|(params, ty)| crate::core::typing::Scheme {
                params: params.clone(),
                ty: ty.clone(),
            })
    }

    pub fn core_type_env(&self) -> crate::core::typing::TypeEnv {
        let mut env = crate::core::typing::TypeEnv::new();
        for dec in &self.decs {
            env.insert(
                dec.name.clone(),
                crate::core::typing::Scheme {
                    params: dec.type_params.clone(),
                    ty: dec.ty.clone(),
                },
            );
        }
        for binding in self.values.values().chain(self.qualified.values()) {
            if let Binding::Top(core, params, ty) = binding {
                env.insert(
                    core.clone(),
                    crate::core::typing::Scheme {
                        params: params.clone(),
                        ty: ty.clone(),
                    },
                );
            }
        }
        env
    }

    /// Binds the value `path.name` (a module-level value of the module
    /// calculus) to the core name `core` with the scheme `type_params. ty`.
    pub fn bind_value(
        &mut self,
        path: &[Name],
        name: &str,
        core: Name,
        type_params: Vec<TypeParam>,
        ty: Type,
    ) {
        let binding = Binding::Top(core, type_params, ty);
        if path.is_empty() {
            self.values.insert(name.to_string(), binding);
        } else {
            self.qualified
                .insert(format!("{}.{name}", path.join(".")), binding);
        }
    }

    /// Forgets every value and type bound under the module path `module.`
    /// (a module of the basis shadowed by one of the program's).
    pub fn forget_module(&mut self, module: &str) {
        let prefix = format!("{module}.");
        let values: Vec<String> = self
            .qualified
            .keys()
            .filter(|key| key.starts_with(&prefix))
            .cloned()
            .collect();
        for key in values {
            self.qualified.remove(&key);
        }
        let types: Vec<String> = self
            .qualified_types
            .keys()
            .filter(|key| key.starts_with(&prefix))
            .cloned()
            .collect();
        for key in types {
            self.qualified_types.remove(&key);
        }
    }

    /// Binds the type `path.name` to `ty`.
    pub fn bind_type(&mut self, path: &[Name], name: &str, ty: Type) {
        if path.is_empty() {
            self.types.remove(name);
            self.type_vars.insert(name.to_string(), ty);
        } else {
            self.qualified_types
                .insert(format!("{}.{name}", path.join(".")), ty);
        }
    }

    /// Elaborates one surface value declaration (not as an entry point)
    /// into a core declaration, in the bindings made so far.
    pub fn elaborate_value(&mut self, bind: &ast::ValueBind) -> EResult<ValueDec> {
        self.value_dec(bind, false)?;
        self.decs
            .pop()
            .ok_or_else(|| error(bind.span, "no declaration was elaborated"))
    }

    /// Elaborates a surface type expression in the bindings made so far.
    pub fn elaborate_type(&mut self, te: &TypeExp) -> EResult<Type> {
        let start = self.metas.len();
        let t = self.elab_type(te)?;
        self.default_metas(start)?;
        Ok(self.zonk(&t))
    }

    fn fresh(&mut self, base: &str) -> Name {
        self.counter += 1;
        format!("{base}'{}", self.counter)
    }

    fn meta(&mut self, span: Span) -> Type {
        self.metas.push((
            None,
            Constraint {
                span,
                ..Constraint::default()
            },
        ));
        Type::Meta((self.metas.len() - 1) as u32)
    }

    fn meta_prim(&mut self, span: Span, set: BTreeSet<PrimType>, default: PrimType) -> Type {
        let t = self.meta(span);
        if let Type::Meta(m) = t {
            self.metas[m as usize].1.prims = Some((set, default));
        }
        t
    }

    /// Follows solved metavariables at the top.
    fn resolve(&self, t: &Type) -> Type {
        let mut t = t.clone();
        while let Type::Meta(m) = t {
            match &self.metas[m as usize].0 {
                Some(s) => t = s.clone(),
                None => break,
            }
        }
        t
    }

    /// Substitutes every solved metavariable.
    fn zonk(&self, t: &Type) -> Type {
        t.map_types(&mut |t| match t {
            Type::Meta(m) => self.metas[*m as usize].0.as_ref().map(|s| self.zonk(s)),
            _ => None,
        })
    }

    fn occurs(&self, m: u32, t: &Type) -> bool {
        let mut found = false;
        self.zonk(t).map_types(&mut |t| {
            if *t == Type::Meta(m) {
                found = true;
            }
            None
        });
        found
    }

    fn unify(&mut self, expected: &Type, actual: &Type, span: Span) -> EResult<()> {
        let (a, b) = (self.resolve(expected), self.resolve(actual));
        let mismatch = |this: &Self| {
            error(
                span,
                format!(
                    "type mismatch: expected {}, found {}",
                    type_name(&this.zonk(&a)),
                    type_name(&this.zonk(&b))
                ),
            )
        };
        match (&a, &b) {
            (Type::Meta(x), Type::Meta(y)) if x == y => Ok(()),
            (Type::Meta(m), other) | (other, Type::Meta(m)) => {
                let m = *m;
                if self.occurs(m, other) {
                    return Err(error(span, "a type would contain itself"));
                }
                let constraint = self.metas[m as usize].1.clone();
                self.metas[m as usize].0 = Some(other.clone());
                self.impose(other, constraint, span)
            }
            (Type::Prim(x), Type::Prim(y)) if x == y => Ok(()),
            (Type::Param(x, _), Type::Param(y, _)) if x == y => Ok(()),
            (Type::Arrow(a1, b1), Type::Arrow(a2, b2)) => {
                self.unify(a1, a2, span)?;
                self.unify(b1, b2, span)
            }
            (Type::Array(x), Type::Array(y)) => self.unify(x, y, span),
            (Type::Record(f1), Type::Record(f2)) => {
                if f1.keys().ne(f2.keys()) {
                    return Err(mismatch(self));
                }
                for (l, t1) in f1 {
                    self.unify(t1, &f2[l], span)?;
                }
                Ok(())
            }
            (Type::Sum(c1), Type::Sum(c2)) => {
                if c1.keys().ne(c2.keys()) {
                    return Err(mismatch(self));
                }
                for (c, ts) in c1 {
                    let us = &c2[c];
                    if ts.len() != us.len() {
                        return Err(mismatch(self));
                    }
                    for (t, u) in ts.iter().zip(us) {
                        self.unify(t, u, span)?;
                    }
                }
                Ok(())
            }
            _ => Err(mismatch(self)),
        }
    }

    /// Imposes a metavariable's constraint on the type it was solved with.
    fn impose(&mut self, t: &Type, c: Constraint, span: Span) -> EResult<()> {
        let t = self.resolve(t);
        if let Type::Meta(m) = t {
            let mine = &mut self.metas[m as usize].1;
            mine.prims = match (mine.prims.take(), c.prims) {
                (None, p) | (p, None) => p,
                (Some((s1, d1)), Some((s2, _))) => {
                    let s: BTreeSet<_> = s1.intersection(&s2).cloned().collect();
                    if s.is_empty() {
                        return Err(error(
                            span,
                            "no primitive type satisfies the uses of this value",
                        ));
                    }
                    let d = if s.contains(&d1) {
                        d1
                    } else {
                        *s.iter().next().unwrap_or(&d1)
                    };
                    Some((s, d))
                }
            };
            let mut pending = Vec::new();
            for (l, ft) in c.fields {
                match mine.fields.get(&l) {
                    Some(existing) => pending.push((existing.clone(), ft)),
                    None => {
                        mine.fields.insert(l, ft);
                    }
                }
            }
            for (k, ts) in c.constructors {
                match mine.constructors.get(&k) {
                    Some(existing) => {
                        for (a, b) in existing.clone().into_iter().zip(ts) {
                            pending.push((a, b));
                        }
                    }
                    None => {
                        mine.constructors.insert(k, ts);
                    }
                }
            }
            for (a, b) in pending {
                self.unify(&a, &b, span)?;
            }
            return Ok(());
        }
        if let Some((set, _)) = &c.prims {
            match &t {
                Type::Prim(p) if set.contains(p) => {}
                other => {
                    return Err(error(
                        span,
                        format!(
                            "the type {} is not one of the primitive types this use needs",
                            type_name(&self.zonk(other))
                        ),
                    ))
                }
            }
        }
        for (l, ft) in c.fields {
            match &t {
                Type::Record(fields) if fields.contains_key(&l) => {
                    let actual = fields[&l].clone();
                    self.unify(&ft, &actual, span)?;
                }
                other => {
                    return Err(error(
                        span,
                        format!("the type {} has no field {l}", type_name(&self.zonk(other))),
                    ))
                }
            }
        }
        for (k, ts) in c.constructors {
            match &t {
                Type::Sum(cs) if cs.get(&k).is_some_and(|us| us.len() == ts.len()) => {
                    let us = cs[&k].clone();
                    for (a, b) in ts.iter().zip(&us) {
                        self.unify(a, b, span)?;
                    }
                }
                other => {
                    return Err(error(
                        span,
                        format!(
                            "the type {} has no constructor #{k} of this arity",
                            type_name(&self.zonk(other))
                        ),
                    ))
                }
            }
        }
        Ok(())
    }

    fn constrain_prims(
        &mut self,
        t: &Type,
        set: BTreeSet<PrimType>,
        default: PrimType,
        span: Span,
    ) -> EResult<()> {
        let c = Constraint {
            prims: Some((set, default)),
            span,
            ..Constraint::default()
        };
        self.impose(t, c, span)
    }

    /// The type of field `label` of a value of type `t`.
    fn field_type(&mut self, t: &Type, label: &str, span: Span) -> EResult<Type> {
        match self.resolve(t) {
            Type::Record(fields) => fields
                .get(label)
                .cloned()
                .ok_or_else(|| error(span, format!("the record has no field {label}"))),
            Type::Meta(_) => {
                let ft = self.meta(span);
                let c = Constraint {
                    fields: [(label.to_string(), ft.clone())].into_iter().collect(),
                    span,
                    ..Constraint::default()
                };
                self.impose(t, c, span)?;
                Ok(ft)
            }
            other => Err(error(
                span,
                format!(
                    "projecting field {label} from a value of type {}",
                    type_name(&self.zonk(&other))
                ),
            )),
        }
    }

    fn elem_type(&mut self, t: &Type, span: Span) -> EResult<Type> {
        let e = self.meta(span);
        self.unify(&Type::array(e.clone()), t, span)?;
        Ok(e)
    }

    // -----------------------------------------------------------------
    // Types

    fn elab_type(&mut self, te: &TypeExp) -> EResult<Type> {
        spec::recursion::with_stack(|| self.elab_type_inner(te))
    }

    fn elab_type_inner(&mut self, te: &TypeExp) -> EResult<Type> {
        match te {
            TypeExp::Var(q) => self.type_name_app(q, &[]),
            TypeExp::Apply {
                constructor, args, ..
            } => self.type_name_app(constructor, args),
            TypeExp::Array { element, .. } => Ok(Type::array(self.elab_type(element)?)),
            TypeExp::Tuple { elements, .. } => Ok(Type::tuple(
                elements
                    .iter()
                    .map(|t| self.elab_type(t))
                    .collect::<EResult<_>>()?,
            )),
            TypeExp::Record { fields, span } => {
                let mut out = BTreeMap::new();
                for (l, t) in fields {
                    if out.insert(l.clone(), self.elab_type(t)?).is_some() {
                        return Err(error(*span, format!("duplicate field {l}")));
                    }
                }
                Ok(Type::Record(out))
            }
            TypeExp::Arrow { from, to, .. } => {
                Ok(Type::arrow(self.elab_type(from)?, self.elab_type(to)?))
            }
            TypeExp::Sum { constructors, .. } => {
                let mut out = BTreeMap::new();
                for c in constructors {
                    let ts = c
                        .payload
                        .iter()
                        .map(|t| self.elab_type(t))
                        .collect::<EResult<Vec<_>>>()?;
                    out.insert(c.name.clone(), ts);
                }
                Ok(Type::Sum(out))
            }
            TypeExp::Unique { ty, .. } => self.elab_type(ty),
            TypeExp::Existential { ty, .. } => self.elab_type(ty),
        }
    }

    fn type_name_app(&mut self, q: &QualName, args: &[TypeArg]) -> EResult<Type> {
        if q.qualifiers == [PRIMITIVE_QUALIFIER] && args.is_empty() {
            if let Some(p) = PrimType::from_name(&q.name) {
                return Ok(Type::Prim(p));
            }
        }
        if !q.qualifiers.is_empty() && args.is_empty() {
            let key = format!("{}.{}", q.qualifiers.join("."), q.name);
            if let Some(t) = self.qualified_types.get(&key) {
                return Ok(t.clone());
            }
        }
        if !q.qualifiers.is_empty() {
            return Err(error(
                q.span,
                format!(
                    "the qualified type {}.{} needs the module calculus",
                    q.qualifiers.join("."),
                    q.name
                ),
            ));
        }
        // A type name bound by the program (a type parameter, a module's
        // type, an abbreviation) shadows the primitive type of that name, as
        // every Futhark name does (SPEC_NOTES ICFP18-21).
        if args.is_empty() {
            if let Some(t) = self.type_vars.get(&q.name) {
                return Ok(t.clone());
            }
        }
        let Some(abbrev) = self.types.get(&q.name).cloned() else {
            if let Some(p) = PrimType::from_name(&q.name).filter(|_| args.is_empty()) {
                return Ok(Type::Prim(p));
            }
            return Err(error(q.span, format!("unknown type {}", q.name)));
        };
        let type_params: Vec<&ast::TypeParam> = abbrev
            .params
            .iter()
            .filter(|p| matches!(p, ast::TypeParam::Type { .. }))
            .collect();
        let type_args: Vec<&TypeExp> = args
            .iter()
            .filter_map(|a| match a {
                TypeArg::Type(t) => Some(t),
                TypeArg::Size { .. } => None,
            })
            .collect();
        if type_params.len() != type_args.len() {
            return Err(error(
                q.span,
                format!(
                    "the type {} takes {} type arguments",
                    q.name,
                    type_params.len()
                ),
            ));
        }
        let saved = self.type_vars.clone();
        let mut bound = Vec::new();
        for (p, a) in type_params.iter().zip(type_args) {
            if let ast::TypeParam::Type { name, .. } = p {
                let t = self.elab_type(a)?;
                bound.push((name.clone(), t));
            }
        }
        for (n, t) in bound {
            self.type_vars.insert(n, t);
        }
        let result = self.elab_type(&abbrev.definition);
        self.type_vars = saved;
        result
    }

    // -----------------------------------------------------------------
    // Declarations

    fn dec(&mut self, dec: &Dec, user: bool) -> EResult<()> {
        match dec {
            Dec::Value(bind) => self.value_dec(bind, user),
            Dec::Type(bind) => {
                // The definition's names are resolved where it is declared
                // (an abbreviation is not recursive, and a later declaration
                // does not change what it means: `type i32 = i32`).
                let params: BTreeSet<Name> = bind
                    .params
                    .iter()
                    .filter_map(|p| match p {
                        ast::TypeParam::Type { name, .. } => Some(name.clone()),
                        ast::TypeParam::Size { .. } => None,
                    })
                    .collect();
                let definition = self.close_type_exp(&bind.definition, &params)?;
                self.types.insert(
                    bind.name.clone(),
                    TypeAbbrev {
                        params: bind.params.clone(),
                        definition,
                    },
                );
                Ok(())
            }
            Dec::Attr { dec, .. } => self.dec(dec, user),
            Dec::Module(b) => Err(self.needs_modules(b.span, "a module declaration")),
            Dec::ModuleType(b) => Err(self.needs_modules(b.span, "a module type declaration")),
            Dec::Open { span, .. } => Err(self.needs_modules(*span, "`open`")),
            Dec::Import { span, .. } => Err(self.needs_modules(*span, "`import`")),
            Dec::Local { span, .. } => Err(self.needs_modules(*span, "`local`")),
        }
    }

    /// Extension (SPEC_NOTES ICFP18-26): `m.(e)`, Futhark's local open, is
    /// `e` elaborated with what the module path `m` reaches bound as the
    /// module calculus bound it by path (`m.x` as `x`, `m.n.y` as `n.y`,
    /// types alike), shadowing the names around it, as `open m` shadows
    /// at the top level. Outside the module calculus nothing is bound by
    /// path: the program needs it (for the numeric modules' paths too).
    fn open_in(
        &mut self,
        module: &QualName,
        body: &ast::Expr,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let prefix: String = module
            .qualifiers
            .iter()
            .chain(std::iter::once(&module.name))
            .map(|part| format!("{part}."))
            .collect();
        let opened_values: Vec<(String, Binding)> = self
            .qualified
            .iter()
            .filter_map(|(key, binding)| {
                key.strip_prefix(&prefix)
                    .map(|rest| (rest.to_string(), binding.clone()))
            })
            .collect();
        let opened_types: Vec<(String, Type)> = self
            .qualified_types
            .iter()
            .filter_map(|(key, ty)| {
                key.strip_prefix(&prefix)
                    .map(|rest| (rest.to_string(), ty.clone()))
            })
            .collect();
        if opened_values.is_empty() && opened_types.is_empty() {
            return Err(error(
                span,
                format!(
                    "the local open of {} needs the module calculus",
                    long_module_name(module)
                ),
            )
            .with_code(NEEDS_MODULE_CALCULUS));
        }
        let saved = (
            self.values.clone(),
            self.types.clone(),
            self.type_vars.clone(),
            self.qualified.clone(),
            self.qualified_types.clone(),
        );
        for (rest, binding) in opened_values {
            if rest.contains('.') {
                self.qualified.insert(rest, binding);
            } else {
                self.values.insert(rest, binding);
            }
        }
        for (rest, ty) in opened_types {
            if rest.contains('.') {
                self.qualified_types.insert(rest, ty);
            } else {
                self.types.remove(&rest);
                self.type_vars.insert(rest, ty);
            }
        }
        // Extension: ICFP18 tfp18-core-local-open
        crate::derivation::fire_rule("ICFP18 tfp18-core-local-open");
        let result = self.expr(body);
        (
            self.values,
            self.types,
            self.type_vars,
            self.qualified,
            self.qualified_types,
        ) = saved;
        result
    }

    fn needs_modules(&self, span: Span, what: &str) -> Diagnostic {
        Diagnostic::error(format!("{what} needs the module calculus"))
            .with_code(spec::diagnostic::codes::UNSUPPORTED)
            .with_primary(span, "the module-free front end (reference::front::from_surface) cannot elaborate this")
            .with_note("module-level programs run through the ICFP'18 static interpretation (reference::modules)")
    }

    fn value_dec(&mut self, bind: &ast::ValueBind, user: bool) -> EResult<()> {
        let meta_start = self.metas.len();
        let saved_values = self.values.clone();
        let saved_type_vars = self.type_vars.clone();
        let mut type_params = Vec::new();
        let mut size_params = Vec::new();
        for tp in &bind.type_params {
            match tp {
                ast::TypeParam::Type {
                    name, liftedness, ..
                } => {
                    self.type_vars
                        .insert(name.clone(), Type::Param(name.clone(), *liftedness));
                    type_params.push(TypeParam {
                        name: name.clone(),
                        liftedness: *liftedness,
                    });
                }
                ast::TypeParam::Size { name, .. } => {
                    size_params.push(name.clone());
                }
            }
        }
        let span = bind.span;
        let (value, ty) = self.function(
            &bind.params,
            bind.return_type.as_ref(),
            &bind.body,
            &size_params,
            span,
        )?;
        self.values = saved_values;
        self.type_vars = saved_type_vars;
        // Generalise: unconstrained metavariables of this declaration become
        // unlifted type parameters; constrained ones take their defaults.
        let ty = self.zonk(&ty);
        let mut implicit: BTreeMap<u32, Type> = BTreeMap::new();
        let mut leftover = Vec::new();
        ty.map_types(&mut |t| {
            if let Type::Meta(m) = t {
                leftover.push(*m);
            }
            None
        });
        for m in leftover {
            if (m as usize) < meta_start || implicit.contains_key(&m) {
                continue;
            }
            let c = &self.metas[m as usize].1;
            if c.prims.is_none() && c.fields.is_empty() && c.constructors.is_empty() {
                let name = format!("t{}", implicit.len());
                implicit.insert(m, Type::Param(name.clone(), Liftedness::Unlifted));
                type_params.push(TypeParam {
                    name,
                    liftedness: Liftedness::Unlifted,
                });
            }
        }
        for (m, t) in &implicit {
            self.metas[*m as usize].0 = Some(t.clone());
        }
        self.default_metas(meta_start)?;
        let ty = self.zonk(&ty);
        let value = self.finish(&value)?;
        let core_name = bind.name.clone();
        let param_count = bind.params.len();
        self.values.insert(
            bind.name.clone(),
            Binding::Top(core_name.clone(), type_params.clone(), ty.clone()),
        );
        let is_entry = user && (bind.kind == ValueBindKind::Entry || bind.name == "main");
        if is_entry && !type_params.is_empty() {
            return Err(error(span, "an entry point cannot be polymorphic"));
        }
        let dec = ValueDec {
            name: core_name.clone(),
            type_params,
            ty,
            param_count,
            value,
            span,
        };
        if is_entry {
            let (dec, entry) = entry_point(dec, core_name, span);
            self.entries.push(entry);
            self.decs.push(dec);
        } else {
            self.decs.push(dec);
        }
        Ok(())
    }

    /// Gives every unsolved metavariable from `start` on its default (`()`
    /// when unconstrained), or reports a record known only by its fields as
    /// ambiguous.
    fn default_metas(&mut self, start: usize) -> EResult<()> {
        for m in start..self.metas.len() {
            if self.metas[m].0.is_some() {
                continue;
            }
            let c = self.metas[m].1.clone();
            let t = if let Some((_, d)) = c.prims {
                Type::Prim(d)
            } else if !c.constructors.is_empty() {
                Type::Sum(c.constructors.clone())
            } else if !c.fields.is_empty() {
                return Err(error(
                    c.span,
                    "the type of this record is ambiguous: add a type annotation",
                ));
            } else {
                // Nothing determines it (a polymorphic function instance
                // never applied, say): every closed instance types the
                // declaration, and `()` is one (SPEC_NOTES TFP18-21).
                Type::unit()
            };
            self.metas[m].0 = Some(t);
        }
        Ok(())
    }

    /// Zonks a core expression and turns the literal placeholders into
    /// literals of their inferred types.
    fn finish(&self, e: &Expr) -> EResult<Expr> {
        let zonked = map_expr_types(e, &mut |t| self.zonk(t));
        self.fix_literals(&zonked)
    }

    fn fix_literals(&self, e: &Expr) -> EResult<Expr> {
        let mut failure = None;
        let out = rewrite(e, &mut |e| {
            if let ExprKind::Var { name, type_args } = &e.kind {
                if let Some(id) = name.strip_prefix("#lit") {
                    let id: usize = id.parse().unwrap_or(0);
                    let (lit, negative) = self.literals[id];
                    match literal_value(lit, negative, &type_args[0]) {
                        Ok(p) => return Some(lit_expr(p, e.span)),
                        Err(m) => {
                            failure.get_or_insert(error(e.span, m));
                            return Some(e.clone());
                        }
                    }
                }
            }
            None
        });
        match failure {
            Some(d) => Err(d),
            None => Ok(out),
        }
    }

    /// `\p1 … pn : ret -> body` with size parameters: the lambdas, then the
    /// size bindings and checks, then the body with its result checked.
    fn function(
        &mut self,
        params: &[Pat],
        return_type: Option<&TypeExp>,
        body: &ast::Expr,
        size_params: &[Name],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let mut param_vars = Vec::new();
        let mut bindings: Vec<(Name, Expr)> = Vec::new();
        let mut checks = Vec::new();
        let mut unbound: Vec<Name> = size_params.to_vec();
        let mut param_types = Vec::new();
        for size in size_params {
            self.values
                .insert(size.clone(), Binding::Local(size.clone(), Type::i64()));
        }
        for p in params {
            let t = self.pat_type(p)?;
            let x = match simple_var(p) {
                Some(name) => name.clone(),
                None => self.fresh("p"),
            };
            self.size_constraints(
                p,
                Expr::var(x.clone(), p.span()),
                &mut unbound,
                &mut bindings,
                &mut checks,
            )?;
            param_vars.push((x, t.clone()));
            param_types.push(t);
        }
        if let Some(n) = unbound.first() {
            return Err(error(
                span,
                format!("the size parameter [{n}] is not the size of any parameter"),
            ));
        }
        // Bind the pattern variables.
        let mut destructure = Vec::new();
        for (p, (x, t)) in params.iter().zip(&param_vars) {
            self.bind_pat(p, Expr::var(x.clone(), p.span()), t, &mut destructure)?;
        }
        let (mut body_core, body_type) = self.expr(body)?;
        let result_type = match return_type {
            Some(rt) => {
                let t = self.elab_type(rt)?;
                self.unify(&t, &body_type, body.span())?;
                let r = self.fresh("result");
                let mut result_checks = Vec::new();
                let mut none = Vec::new();
                self.type_checks(
                    rt,
                    Expr::var(r.clone(), body.span()),
                    &mut none,
                    &mut Vec::new(),
                    &mut result_checks,
                    "the result",
                )?;
                if !result_checks.is_empty() {
                    let mut inner = Expr::var(r.clone(), body.span());
                    for (cond, message, s) in result_checks.into_iter().rev() {
                        inner = Expr::new(
                            ExprKind::Assert {
                                condition: cond.boxed(),
                                message,
                                body: inner.boxed(),
                            },
                            s,
                        );
                    }
                    body_core = let_in(r, body_core, inner, body.span());
                }
                t
            }
            None => body_type,
        };
        for (name, value) in destructure.into_iter().rev() {
            body_core = let_in(name, value, body_core, span);
        }
        for (cond, message, s) in checks.into_iter().rev() {
            body_core = Expr::new(
                ExprKind::Assert {
                    condition: cond.boxed(),
                    message,
                    body: body_core.boxed(),
                },
                s,
            );
        }
        for (name, value) in bindings.into_iter().rev() {
            body_core = let_in(name, value, body_core, span);
        }
        let mut ty = result_type;
        let param_count = param_vars.len();
        for ((x, t), p) in param_vars.into_iter().zip(params).rev() {
            body_core = declared_lambda(
                x,
                t.clone(),
                body_core,
                Uniqueness::declared(&DeclaredUniqueness::of_pattern(p)),
                span,
            );
            ty = Type::arrow(t, ty);
        }
        let result_uniqueness = return_type
            .map(|ty| Uniqueness::declared(&DeclaredUniqueness::of_type(ty)))
            .unwrap_or_default();
        Ok((
            with_result_uniqueness(body_core, param_count, result_uniqueness),
            ty,
        ))
    }

    /// Size bindings and checks from the type ascriptions of a pattern.
    fn size_constraints(
        &mut self,
        p: &Pat,
        value: Expr,
        unbound: &mut Vec<Name>,
        bindings: &mut Vec<(Name, Expr)>,
        checks: &mut Vec<(Expr, String, Span)>,
    ) -> EResult<()> {
        match p {
            Pat::Ascribe { pat, ty, .. } => {
                let what = match &**pat {
                    Pat::Var { name, .. } => format!("`{name}`"),
                    _ => "the argument".to_string(),
                };
                self.type_checks(ty, value.clone(), unbound, bindings, checks, &what)?;
                self.size_constraints(pat, value, unbound, bindings, checks)
            }
            Pat::Tuple { elements, .. } => {
                for (i, e) in elements.iter().enumerate() {
                    self.size_constraints(
                        e,
                        project(value.clone(), i.to_string(), e.span()),
                        unbound,
                        bindings,
                        checks,
                    )?;
                }
                Ok(())
            }
            Pat::Record { fields, .. } => {
                for (l, e) in fields {
                    self.size_constraints(
                        e,
                        project(value.clone(), l.clone(), e.span()),
                        unbound,
                        bindings,
                        checks,
                    )?;
                }
                Ok(())
            }
            Pat::Attr { pat, .. } => self.size_constraints(pat, value, unbound, bindings, checks),
            _ => Ok(()),
        }
    }

    /// A type abbreviation's definition with every type name it mentions
    /// resolved in the current scope: an abbreviation by its (closed)
    /// definition, a primitive type by [`PRIMITIVE_QUALIFIER`]`.name` (which
    /// no later declaration shadows); `params`, names of the current type
    /// variables and qualified names are kept; any other name is unknown.
    fn close_type_exp(&self, te: &TypeExp, params: &BTreeSet<Name>) -> EResult<TypeExp> {
        let go = |t: &TypeExp| self.close_type_exp(t, params);
        Ok(match te {
            TypeExp::Var(q)
                if q.qualifiers.is_empty()
                    && !params.contains(&q.name)
                    && !self.type_vars.contains_key(&q.name) =>
            {
                if self.types.contains_key(&q.name) {
                    self.expand_abbreviation(te).ok_or_else(|| {
                        error(q.span, format!("the type {} takes arguments", q.name))
                    })?
                } else if PrimType::from_name(&q.name).is_some() {
                    TypeExp::Var(QualName {
                        qualifiers: vec![PRIMITIVE_QUALIFIER.to_string()],
                        ..q.clone()
                    })
                } else {
                    return Err(error(q.span, format!("unknown type {}", q.name)));
                }
            }
            TypeExp::Var(_) => te.clone(),
            TypeExp::Apply {
                constructor, span, ..
            } => {
                let applied = te.try_map_children(go)?;
                if !constructor.qualifiers.is_empty() {
                    return Ok(applied);
                }
                if !self.types.contains_key(&constructor.name) {
                    return Err(error(
                        constructor.span,
                        format!("unknown type {}", constructor.name),
                    ));
                }
                self.expand_abbreviation(&applied).ok_or_else(|| {
                    error(
                        *span,
                        format!("wrong number of arguments to the type {}", constructor.name),
                    )
                })?
            }
            _ => te.try_map_children(go)?,
        })
    }

    /// `t [n] a` for an abbreviation `type t [m] 'b = …`: its definition
    /// with the arguments substituted (for the size checks, which need the
    /// sizes the abbreviation hides).
    fn expand_abbreviation(&self, te: &TypeExp) -> Option<TypeExp> {
        let (q, args): (&QualName, &[TypeArg]) = match te {
            TypeExp::Var(q) => (q, &[]),
            TypeExp::Apply {
                constructor, args, ..
            } => (constructor, args),
            _ => return None,
        };
        if !q.qualifiers.is_empty() {
            return None;
        }
        let abbrev = self.types.get(&q.name)?;
        if abbrev.params.len() != args.len() {
            return None;
        }
        let mut sizes = BTreeMap::new();
        let mut types = BTreeMap::new();
        for (p, a) in abbrev.params.iter().zip(args) {
            match (p, a) {
                (ast::TypeParam::Size { name, .. }, TypeArg::Size { size, .. }) => {
                    sizes.insert(name.clone(), size.clone());
                }
                (ast::TypeParam::Type { name, .. }, TypeArg::Type(t)) => {
                    types.insert(name.clone(), t.clone());
                }
                _ => return None,
            }
        }
        Some(substitute_type_exp(&abbrev.definition, &sizes, &types))
    }

    /// Walks a type expression against a value: a named size not yet bound is
    /// bound to the dimension; a bound or constant one is checked.
    fn type_checks(
        &mut self,
        te: &TypeExp,
        value: Expr,
        unbound: &mut Vec<Name>,
        bindings: &mut Vec<(Name, Expr)>,
        checks: &mut Vec<(Expr, String, Span)>,
        what: &str,
    ) -> EResult<()> {
        let mut owned = te.clone();
        let mut depth = 0;
        let span = value.span;
        loop {
            // Type abbreviations are expanded, with their size arguments.
            if let Some(expanded) = self.expand_abbreviation(&owned) {
                owned = expanded;
                continue;
            }
            let te = &owned;
            match te {
                TypeExp::Array {
                    size,
                    element,
                    span: ts,
                } => {
                    let dim = Expr::new(
                        ExprKind::Intrinsic {
                            op: Intrinsic::Dim(depth),
                            args: vec![value.clone()],
                        },
                        span,
                    );
                    match size {
                        SizeExp::Anonymous => {}
                        // Extension (SPEC_NOTES TFP18-25): a size
                        // expression is typed as an `i64` in scope and is
                        // otherwise an unknown size, as on the optimising
                        // front end: no check.
                        SizeExp::Expression(expression) => {
                            // Extension: TFP18 T-SizeExpression
                            crate::derivation::fire_rule("TFP18 T-SizeExpression");
                            let (_, expression_type) = self.expr(expression)?;
                            self.unify(&Type::i64(), &expression_type, expression.span())?;
                        }
                        SizeExp::Constant(c) => checks.push((
                            binop(CoreBinOp::Eq, dim, i64_lit(*c as i64, *ts), *ts),
                            format!("Size mismatch: dimension {depth} of {what} is not {c}."),
                            span,
                        )),
                        SizeExp::Named(q) => {
                            if let Some(pos) = unbound
                                .iter()
                                .position(|n| *n == q.name && q.qualifiers.is_empty())
                            {
                                unbound.remove(pos);
                                bindings.push((q.name.clone(), dim));
                            } else {
                                checks.push((
                                    binop(CoreBinOp::Eq, dim, Expr::var(q.name.clone(), q.span), *ts),
                                    format!("Size mismatch: dimension {depth} of {what} does not have the size `{}` of its type.", q.name),
                                    span,
                                ));
                            }
                        }
                    }
                    depth += 1;
                    owned = (**element).clone();
                }
                TypeExp::Unique { ty, .. } => owned = (**ty).clone(),
                TypeExp::Tuple { elements, .. } if depth == 0 => {
                    for (i, e) in elements.iter().enumerate() {
                        self.type_checks(
                            e,
                            project(value.clone(), i.to_string(), span),
                            unbound,
                            bindings,
                            checks,
                            what,
                        )?;
                    }
                    return Ok(());
                }
                TypeExp::Record { fields, .. } if depth == 0 => {
                    for (l, e) in fields {
                        self.type_checks(
                            e,
                            project(value.clone(), l.clone(), span),
                            unbound,
                            bindings,
                            checks,
                            what,
                        )?;
                    }
                    return Ok(());
                }
                _ => return Ok(()),
            }
        }
    }

    /// The type of a pattern (from its ascriptions, else fresh).
    fn pat_type(&mut self, p: &Pat) -> EResult<Type> {
        match p {
            Pat::Var { span, .. } | Pat::Wildcard { span } => Ok(self.meta(*span)),
            Pat::Tuple { elements, .. } => Ok(Type::tuple(
                elements
                    .iter()
                    .map(|e| self.pat_type(e))
                    .collect::<EResult<_>>()?,
            )),
            Pat::Record { fields, .. } => {
                let mut out = BTreeMap::new();
                for (l, e) in fields {
                    out.insert(l.clone(), self.pat_type(e)?);
                }
                Ok(Type::Record(out))
            }
            Pat::Ascribe { pat, ty, span } => {
                let t = self.elab_type(ty)?;
                let inner = self.pat_type(pat)?;
                self.unify(&t, &inner, *span)?;
                Ok(t)
            }
            Pat::Attr { pat, .. } => self.pat_type(pat),
            Pat::Literal { span, .. } | Pat::Constructor { span, .. } => Err(error(
                *span,
                "a refutable pattern is only allowed in a `match` case",
            )),
        }
    }

    /// Binds the variables of an irrefutable pattern matched against
    /// `value` (of type `t`) as `let`s, adding them to the scope.
    fn bind_pat(
        &mut self,
        p: &Pat,
        value: Expr,
        t: &Type,
        out: &mut Vec<(Name, Expr)>,
    ) -> EResult<()> {
        match p {
            Pat::Var { name, .. } => {
                if !matches!(&value.kind, ExprKind::Var { name: v, .. } if v == name) {
                    out.push((name.clone(), value));
                }
                self.values
                    .insert(name.clone(), Binding::Local(name.clone(), t.clone()));
                Ok(())
            }
            Pat::Wildcard { .. } => Ok(()),
            Pat::Tuple { elements, span } => {
                let ts: Vec<Type> = elements
                    .iter()
                    .map(|e| self.pat_type(e))
                    .collect::<EResult<_>>()?;
                self.unify(&Type::tuple(ts.clone()), t, *span)?;
                let tmp = self.fresh("tuple");
                out.push((tmp.clone(), value));
                for (i, (e, et)) in elements.iter().zip(&ts).enumerate() {
                    self.bind_pat(
                        e,
                        project(Expr::var(tmp.clone(), *span), i.to_string(), *span),
                        et,
                        out,
                    )?;
                }
                Ok(())
            }
            Pat::Record { fields, span } => {
                let tmp = self.fresh("record");
                out.push((tmp.clone(), value));
                for (l, e) in fields {
                    let ft = self.field_type(t, l, *span)?;
                    let et = self.pat_type(e)?;
                    self.unify(&et, &ft, *span)?;
                    self.bind_pat(
                        e,
                        project(Expr::var(tmp.clone(), *span), l.clone(), *span),
                        &ft,
                        out,
                    )?;
                }
                Ok(())
            }
            Pat::Ascribe { pat, ty, span } => {
                let at = self.elab_type(ty)?;
                self.unify(&at, t, *span)?;
                self.bind_pat(pat, value, t, out)
            }
            Pat::Attr { pat, .. } => self.bind_pat(pat, value, t, out),
            Pat::Literal { span, .. } | Pat::Constructor { span, .. } => Err(error(
                *span,
                "a refutable pattern is only allowed in a `match` case",
            )),
        }
    }

    // -----------------------------------------------------------------
    // Expressions

    fn expr(&mut self, e: &ast::Expr) -> EResult<(Expr, Type)> {
        spec::recursion::with_stack(|| self.expr_inner(e))
    }

    fn literal(&mut self, lit: Literal, negative: bool, span: Span) -> (Expr, Type) {
        let t = match lit {
            Literal::Int {
                suffix: Some(s), ..
            } => Type::Prim(int_type(s)),
            Literal::Float {
                suffix: Some(s), ..
            } => Type::Prim(float_type(s)),
            Literal::Int { suffix: None, .. } => self.meta_prim(span, numeric(), PrimType::I32),
            Literal::Float { suffix: None, .. } => self.meta_prim(span, floats(), PrimType::F64),
            Literal::Bool(b) => return (lit_expr(PrimValue::Bool(b), span), Type::bool()),
        };
        self.literals.push((lit, negative));
        let id = self.literals.len() - 1;
        (
            Expr::new(
                ExprKind::Var {
                    name: format!("#lit{id}"),
                    type_args: vec![t.clone()],
                },
                span,
            ),
            t,
        )
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> EResult<(Expr, Type)> {
        let span = e.span();
        match e {
            ast::Expr::Literal { literal, span } => Ok(self.literal(*literal, false, *span)),
            ast::Expr::Var(q) => self.qual_var(q),
            ast::Expr::Project { expr, field, span } => {
                let (ec, t) = self.expr(expr)?;
                let ft = self.field_type(&t, field, *span)?;
                Ok((project(ec, field.clone(), *span), ft))
            }
            ast::Expr::Tuple { elements, .. } => {
                let mut fields = Vec::new();
                let mut types = Vec::new();
                for (i, el) in elements.iter().enumerate() {
                    let (c, t) = self.expr(el)?;
                    fields.push((i.to_string(), c));
                    types.push(t);
                }
                Ok((
                    Expr::new(ExprKind::Record(fields), span),
                    Type::tuple(types),
                ))
            }
            ast::Expr::Record { fields, .. } => {
                let mut out = Vec::new();
                let mut types = BTreeMap::new();
                for (l, el) in fields {
                    let (c, t) = self.expr(el)?;
                    if types.insert(l.clone(), t).is_some() {
                        return Err(error(el.span(), format!("duplicate field {l}")));
                    }
                    out.push((l.clone(), c));
                }
                Ok((Expr::new(ExprKind::Record(out), span), Type::Record(types)))
            }
            ast::Expr::Array { elements, .. } => {
                let elem = self.meta(span);
                let mut out = Vec::new();
                for el in elements {
                    let (c, t) = self.expr(el)?;
                    self.unify(&elem, &t, el.span())?;
                    out.push(c);
                }
                Ok((
                    Expr::new(
                        ExprKind::Array {
                            elements: out,
                            elem_type: elem.clone(),
                        },
                        span,
                    ),
                    Type::array(elem),
                ))
            }
            ast::Expr::Range {
                start,
                step,
                end,
                end_kind,
                ..
            } => {
                let (s, ts) = self.expr(start)?;
                let (en, te) = self.expr(end)?;
                self.unify(&ts, &te, span)?;
                self.constrain_prims(&ts, integral(), PrimType::I64, span)?;
                let sv = self.fresh("start");
                let step_expr = match step {
                    Some(next) => {
                        let (n, tn) = self.expr(next)?;
                        self.unify(&ts, &tn, next.span())?;
                        binop(CoreBinOp::Sub, n, Expr::var(sv.clone(), span), span)
                    }
                    None => {
                        let negative = *end_kind == RangeEnd::DownToExclusive;
                        let (one, t1) = self.literal(
                            Literal::Int {
                                value: 1,
                                suffix: None,
                            },
                            negative,
                            span,
                        );
                        self.unify(&ts, &t1, span)?;
                        one
                    }
                };
                let kind = match end_kind {
                    RangeEnd::Inclusive => crate::core::syntax::RangeKind::Inclusive,
                    RangeEnd::UpToExclusive => crate::core::syntax::RangeKind::UpToExclusive,
                    RangeEnd::DownToExclusive => crate::core::syntax::RangeKind::DownToExclusive,
                };
                let range = Expr::new(
                    ExprKind::Intrinsic {
                        op: Intrinsic::Range(kind),
                        args: vec![Expr::var(sv.clone(), span), step_expr, en],
                    },
                    span,
                );
                Ok((let_in(sv, s, range, span), Type::array(ts)))
            }
            ast::Expr::Index {
                array,
                indices,
                span,
            } => {
                let (a, t) = self.expr(array)?;
                self.index(a, t, indices, *span)
            }
            ast::Expr::Apply { .. } => {
                let mut args = Vec::new();
                let mut f = e;
                while let ast::Expr::Apply {
                    function, argument, ..
                } = f
                {
                    args.push(&**argument);
                    f = function;
                }
                args.reverse();
                self.application(f, &args, span)
            }
            ast::Expr::BinOp { op, lhs, rhs, span } => self.binop(op, lhs, rhs, *span),
            ast::Expr::Negate { expr, span } => {
                if let ast::Expr::Literal { literal, span: ls } = &**expr {
                    if !matches!(literal, Literal::Bool(_)) {
                        return Ok(self.literal(*literal, true, ls.to(*span)));
                    }
                }
                let (c, t) = self.expr(expr)?;
                self.constrain_prims(&t, numeric(), PrimType::I32, *span)?;
                Ok((
                    Expr::new(
                        ExprKind::UnOp {
                            op: UnOp::Neg,
                            operand: c.boxed(),
                        },
                        *span,
                    ),
                    t,
                ))
            }
            ast::Expr::Not { expr, span } => {
                let (c, t) = self.expr(expr)?;
                let mut set = integral();
                set.insert(PrimType::Bool);
                self.constrain_prims(&t, set, PrimType::Bool, *span)?;
                Ok((
                    Expr::new(
                        ExprKind::UnOp {
                            op: UnOp::Not,
                            operand: c.boxed(),
                        },
                        *span,
                    ),
                    t,
                ))
            }
            ast::Expr::OpSection { op, span }
                if op.name().qualifiers.is_empty()
                    && op.name().name == "!"
                    && !self.values.contains_key("!") =>
            {
                self.var("!", *span)
            }
            ast::Expr::OpSection { op, span } => {
                let (x, y) = (self.fresh("x"), self.fresh("y"));
                let (tx, ty) = (self.meta(*span), self.meta(*span));
                let (body, tr) = self.apply_op(
                    op,
                    (Expr::var(x.clone(), *span), tx.clone()),
                    (Expr::var(y.clone(), *span), ty.clone()),
                    *span,
                )?;
                Ok((
                    lambda(x, tx.clone(), lambda(y, ty.clone(), body, *span), *span),
                    Type::arrow(tx, Type::arrow(ty, tr)),
                ))
            }
            ast::Expr::LeftSection { op, left, span } => {
                let (l, tl) = self.expr(left)?;
                let (lv, y) = (self.fresh("left"), self.fresh("y"));
                let ty = self.meta(*span);
                let (body, tr) = self.apply_op(
                    op,
                    (Expr::var(lv.clone(), *span), tl),
                    (Expr::var(y.clone(), *span), ty.clone()),
                    *span,
                )?;
                Ok((
                    let_in(lv, l, lambda(y, ty.clone(), body, *span), *span),
                    Type::arrow(ty, tr),
                ))
            }
            ast::Expr::RightSection { op, right, span } => {
                let (r, tr0) = self.expr(right)?;
                let (rv, x) = (self.fresh("right"), self.fresh("x"));
                let tx = self.meta(*span);
                let (body, tr) = self.apply_op(
                    op,
                    (Expr::var(x.clone(), *span), tx.clone()),
                    (Expr::var(rv.clone(), *span), tr0),
                    *span,
                )?;
                Ok((
                    let_in(rv, r, lambda(x, tx.clone(), body, *span), *span),
                    Type::arrow(tx, tr),
                ))
            }
            ast::Expr::ProjectSection { fields, span } => {
                let x = self.fresh("r");
                let tx = self.meta(*span);
                let mut body = Expr::var(x.clone(), *span);
                let mut t = tx.clone();
                for f in fields {
                    t = self.field_type(&t, f, *span)?;
                    body = project(body, f.clone(), *span);
                }
                Ok((lambda(x, tx.clone(), body, *span), Type::arrow(tx, t)))
            }
            ast::Expr::IndexSection { indices, span } => {
                let x = self.fresh("a");
                let tx = self.meta(*span);
                let (body, t) =
                    self.index(Expr::var(x.clone(), *span), tx.clone(), indices, *span)?;
                Ok((lambda(x, tx.clone(), body, *span), Type::arrow(tx, t)))
            }
            ast::Expr::If {
                condition,
                then_branch,
                else_branch,
                span,
            } => {
                let (c, tc) = self.expr(condition)?;
                self.unify(&Type::bool(), &tc, condition.span())?;
                let (t, tt) = self.expr(then_branch)?;
                let (el, te) = self.expr(else_branch)?;
                self.unify(&tt, &te, else_branch.span())?;
                Ok((
                    Expr::new(
                        ExprKind::If {
                            condition: c.boxed(),
                            then_branch: t.boxed(),
                            else_branch: el.boxed(),
                        },
                        *span,
                    ),
                    tt,
                ))
            }
            ast::Expr::Let {
                sizes,
                pat,
                value,
                body,
                span,
            } => {
                let (v, tv) = self.expr(value)?;
                let saved = self.values.clone();
                let pt = self.pat_type(pat)?;
                self.unify(&pt, &tv, pat.span())?;
                let tmp = match simple_var(pat) {
                    Some(name) => name.clone(),
                    None => self.fresh("let"),
                };
                let mut unbound: Vec<Name> = sizes.clone();
                let mut bindings = Vec::new();
                let mut checks = Vec::new();
                self.size_constraints(
                    pat,
                    Expr::var(tmp.clone(), pat.span()),
                    &mut unbound,
                    &mut bindings,
                    &mut checks,
                )?;
                for s in sizes {
                    self.values
                        .insert(s.clone(), Binding::Local(s.clone(), Type::i64()));
                }
                if let Some(n) = unbound.first() {
                    return Err(error(
                        *span,
                        format!("the size [{n}] is not the size of any part of the pattern"),
                    ));
                }
                let mut lets = Vec::new();
                self.bind_pat(pat, Expr::var(tmp.clone(), pat.span()), &tv, &mut lets)?;
                let (mut b, tb) = self.expr(body)?;
                self.values = saved;
                for (n, x) in lets.into_iter().rev() {
                    b = let_in(n, x, b, *span);
                }
                for (cond, message, s) in checks.into_iter().rev() {
                    b = Expr::new(
                        ExprKind::Assert {
                            condition: cond.boxed(),
                            message,
                            body: b.boxed(),
                        },
                        s,
                    );
                }
                for (n, x) in bindings.into_iter().rev() {
                    b = let_in(n, x, b, *span);
                }
                Ok((let_in(tmp, v, b, *span), tb))
            }
            ast::Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                span,
            } if type_params
                .iter()
                .any(|tp| matches!(tp, ast::TypeParam::Type { .. })) =>
            {
                // A local function with type parameters is generalised:
                // checked once with its type parameters rigid, then
                // elaborated anew at every use (SPEC_NOTES TFP18-17).
                let saved = self.values.clone();
                let saved_type_vars = self.type_vars.clone();
                let mut sizes = Vec::new();
                for tp in type_params {
                    match tp {
                        ast::TypeParam::Size { name, .. } => sizes.push(name.clone()),
                        ast::TypeParam::Type {
                            name, liftedness, ..
                        } => {
                            self.type_vars
                                .insert(name.clone(), Type::Param(name.clone(), *liftedness));
                        }
                    }
                }
                let checked = self.function(params, return_type.as_ref(), value, &sizes, *span);
                self.values = saved.clone();
                self.type_vars = saved_type_vars.clone();
                checked?;
                self.counter += 1;
                let id = self.counter;
                let function = LocalPolyFunction {
                    id,
                    name: name.clone(),
                    type_params: type_params.clone(),
                    params: params.clone(),
                    return_type: return_type.clone(),
                    value: (**value).clone(),
                    span: *span,
                    values: saved.clone(),
                    type_vars: saved_type_vars,
                };
                self.values
                    .insert(name.clone(), Binding::LocalPoly(Rc::new(function)));
                let body = self.expr(body);
                self.values = saved;
                let instances = self.local_instances.remove(&id).unwrap_or_default();
                let (mut b, tb) = body?;
                for (instance, definition) in instances.into_iter().rev() {
                    b = let_in(instance, definition, b, *span);
                }
                Ok((b, tb))
            }
            ast::Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                span,
            } => {
                // A local function with only size parameters is
                // monomorphic.
                let mut sizes = Vec::new();
                let saved_type_vars = self.type_vars.clone();
                for tp in type_params {
                    match tp {
                        ast::TypeParam::Size { name, .. } => sizes.push(name.clone()),
                        ast::TypeParam::Type { name, span, .. } => {
                            let m = self.meta(*span);
                            self.type_vars.insert(name.clone(), m);
                        }
                    }
                }
                let saved = self.values.clone();
                let result = self.function(params, return_type.as_ref(), value, &sizes, *span);
                self.values = saved.clone();
                self.type_vars = saved_type_vars;
                let (f, tf) = result?;
                self.values
                    .insert(name.clone(), Binding::Local(name.clone(), tf.clone()));
                let body = self.expr(body);
                self.values = saved;
                let (b, tb) = body?;
                Ok((let_in(name.clone(), f, b, *span), tb))
            }
            ast::Expr::LetWith {
                name,
                name_span,
                indices,
                value,
                body,
                span,
            } => {
                let target = ast::Expr::Var(QualName::unqualified(name.clone(), *name_span));
                let (updated, t) = self.update(&target, indices, value, *span)?;
                let saved = self.values.clone();
                self.values
                    .insert(name.clone(), Binding::Local(name.clone(), t.clone()));
                let (b, tb) = self.expr(body)?;
                self.values = saved;
                Ok((let_in(name.clone(), updated, b, *span), tb))
            }
            ast::Expr::Lambda {
                params,
                return_type,
                body,
                span,
            } => {
                let saved = self.values.clone();
                let result = self.function(params, return_type.as_ref(), body, &[], *span);
                self.values = saved;
                result
            }
            ast::Expr::Loop {
                pat,
                init,
                form,
                body,
                span,
            } => self.loop_expr(pat, init.as_deref(), form, body, *span),
            ast::Expr::Update {
                target,
                indices,
                value,
                span,
            } => self.update(target, indices, value, *span),
            ast::Expr::RecordUpdate {
                target,
                fields,
                value,
                span,
            } => {
                let (t, tt) = self.expr(target)?;
                let (v, tv) = self.expr(value)?;
                let tmp = self.fresh("record");
                let updated =
                    self.record_update(Expr::var(tmp.clone(), *span), &tt, fields, v, &tv, *span)?;
                Ok((let_in(tmp, t, updated, *span), tt))
            }
            ast::Expr::Ascribe { expr, ty, span } | ast::Expr::Coerce { expr, ty, span } => {
                let (c, t) = self.expr(expr)?;
                let at = self.elab_type(ty)?;
                self.unify(&at, &t, *span)?;
                let tmp = self.fresh("ascribed");
                let mut checks = Vec::new();
                self.type_checks(
                    ty,
                    Expr::var(tmp.clone(), *span),
                    &mut Vec::new(),
                    &mut Vec::new(),
                    &mut checks,
                    "the value",
                )?;
                if checks.is_empty() {
                    return Ok((c, t));
                }
                let mut inner = Expr::var(tmp.clone(), *span);
                for (cond, message, s) in checks.into_iter().rev() {
                    inner = Expr::new(
                        ExprKind::Assert {
                            condition: cond.boxed(),
                            message,
                            body: inner.boxed(),
                        },
                        s,
                    );
                }
                Ok((let_in(tmp, c, inner, *span), t))
            }
            ast::Expr::Match {
                scrutinee,
                cases,
                span,
            } => {
                let (s, ts) = self.expr(scrutinee)?;
                let result = self.meta(*span);
                let mut out = Vec::new();
                for case in cases {
                    let saved = self.values.clone();
                    let p = self.match_pat(&case.pat, &ts)?;
                    let (b, tb) = self.expr(&case.body)?;
                    self.unify(&result, &tb, case.body.span())?;
                    self.values = saved;
                    out.push((p, b));
                }
                Ok((
                    Expr::new(
                        ExprKind::Match {
                            scrutinee: s.boxed(),
                            cases: out,
                        },
                        *span,
                    ),
                    result,
                ))
            }
            ast::Expr::Constructor {
                name,
                payload,
                span,
            } => {
                let mut out = Vec::new();
                let mut types = Vec::new();
                for p in payload {
                    let (c, t) = self.expr(p)?;
                    out.push(c);
                    types.push(t);
                }
                let t = self.meta(*span);
                let c = Constraint {
                    constructors: [(name.clone(), types)].into_iter().collect(),
                    span: *span,
                    ..Constraint::default()
                };
                self.impose(&t, c, *span)?;
                Ok((
                    Expr::new(
                        ExprKind::Constructor {
                            name: name.clone(),
                            payload: out,
                            sum_type: t.clone(),
                        },
                        *span,
                    ),
                    t,
                ))
            }
            ast::Expr::OpenIn { module, body, span } => self.open_in(module, body, *span),
            ast::Expr::Attr { expr, .. } => self.expr(expr),
        }
    }

    fn match_pat(&mut self, p: &Pat, t: &Type) -> EResult<CorePat> {
        match p {
            Pat::Var { name, .. } => {
                self.values
                    .insert(name.clone(), Binding::Local(name.clone(), t.clone()));
                Ok(CorePat::Var(name.clone()))
            }
            Pat::Wildcard { .. } => Ok(CorePat::Wildcard),
            Pat::Tuple { elements, span } => {
                let ts: Vec<Type> = elements.iter().map(|e| self.meta(e.span())).collect();
                self.unify(&Type::tuple(ts.clone()), t, *span)?;
                let mut out = Vec::new();
                for (i, (e, et)) in elements.iter().zip(&ts).enumerate() {
                    out.push((i.to_string(), self.match_pat(e, et)?));
                }
                Ok(CorePat::Record(out))
            }
            Pat::Record { fields, span } => {
                let mut out = Vec::new();
                for (l, e) in fields {
                    let ft = self.field_type(t, l, *span)?;
                    out.push((l.clone(), self.match_pat(e, &ft)?));
                }
                Ok(CorePat::Record(out))
            }
            Pat::Literal {
                negative,
                literal,
                span,
            } => {
                let (c, lt) = self.literal(*literal, *negative, *span);
                self.unify(t, &lt, *span)?;
                // The placeholder is resolved when the declaration is finished.
                let fixed = self.finish_literal_pattern(&c, *span)?;
                Ok(fixed)
            }
            Pat::Constructor {
                name,
                payload,
                span,
            } => {
                let ts: Vec<Type> = payload.iter().map(|e| self.meta(e.span())).collect();
                let c = Constraint {
                    constructors: [(name.clone(), ts.clone())].into_iter().collect(),
                    span: *span,
                    ..Constraint::default()
                };
                self.impose(t, c, *span)?;
                let mut out = Vec::new();
                for (e, et) in payload.iter().zip(&ts) {
                    out.push(self.match_pat(e, et)?);
                }
                Ok(CorePat::Constructor(name.clone(), out))
            }
            Pat::Ascribe { pat, ty, span } => {
                let at = self.elab_type(ty)?;
                self.unify(&at, t, *span)?;
                self.match_pat(pat, t)
            }
            Pat::Attr { pat, .. } => self.match_pat(pat, t),
        }
    }

    /// A literal pattern needs its value now: its type must already be known
    /// (or defaults).
    fn finish_literal_pattern(&mut self, c: &Expr, span: Span) -> EResult<CorePat> {
        if let ExprKind::Var { name, type_args } = &c.kind {
            let id: usize = name.trim_start_matches("#lit").parse().unwrap_or(0);
            let t = match self.resolve(&type_args[0]) {
                Type::Meta(m) => match self.metas[m as usize].1.prims.clone() {
                    Some((_, d)) => {
                        self.metas[m as usize].0 = Some(Type::Prim(d));
                        Type::Prim(d)
                    }
                    None => return Err(error(span, "ambiguous literal pattern")),
                },
                t => t,
            };
            let (lit, negative) = self.literals[id];
            return literal_value(lit, negative, &t)
                .map(CorePat::Literal)
                .map_err(|m| error(span, m));
        }
        match &c.kind {
            ExprKind::Literal(p) => Ok(CorePat::Literal(*p)),
            _ => Err(error(span, "bad literal pattern")),
        }
    }

    fn record_update(
        &mut self,
        target: Expr,
        tt: &Type,
        fields: &[Name],
        value: Expr,
        tv: &Type,
        span: Span,
    ) -> EResult<Expr> {
        let Type::Record(types) = self.resolve(tt) else {
            return Err(error(
                span,
                "the type of the updated record must be known here: add a type annotation",
            ));
        };
        let (first, rest) = fields
            .split_first()
            .ok_or_else(|| error(span, "empty field path"))?;
        if !types.contains_key(first) {
            return Err(error(span, format!("the record has no field {first}")));
        }
        let mut out = Vec::new();
        for (l, ft) in &types {
            let old = project(target.clone(), l.clone(), span);
            if l == first {
                if rest.is_empty() {
                    self.unify(ft, tv, span)?;
                    out.push((l.clone(), value.clone()));
                } else {
                    out.push((
                        l.clone(),
                        self.record_update(old, ft, rest, value.clone(), tv, span)?,
                    ));
                }
            } else {
                out.push((l.clone(), old));
            }
        }
        Ok(Expr::new(ExprKind::Record(out), span))
    }

    fn index_expr(&mut self, i: &ast::Expr) -> EResult<Expr> {
        let (c, t) = self.expr(i)?;
        self.constrain_prims(&t, integral(), PrimType::I64, i.span())?;
        Ok(c)
    }

    fn slice_part(&mut self, e: &Option<ast::Expr>) -> EResult<Option<Box<Expr>>> {
        match e {
            None => Ok(None),
            Some(e) => {
                let (c, t) = self.expr(e)?;
                self.unify(&Type::i64(), &t, e.span())?;
                Ok(Some(c.boxed()))
            }
        }
    }

    fn index(
        &mut self,
        a: Expr,
        t: Type,
        indices: &[DimIndex],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let Some((first, rest)) = indices.split_first() else {
            return Ok((a, t));
        };
        let elem = self.elem_type(&t, span)?;
        match first {
            DimIndex::Index(i) => {
                let ic = self.index_expr(i)?;
                let indexed = Expr::new(
                    ExprKind::Index {
                        array: a.boxed(),
                        index: ic.boxed(),
                    },
                    span,
                );
                self.index(indexed, elem, rest, span)
            }
            DimIndex::Slice { start, end, stride } => {
                let sliced = Expr::new(
                    ExprKind::Slice {
                        array: a.boxed(),
                        start: self.slice_part(start)?,
                        end: self.slice_part(end)?,
                        stride: self.slice_part(stride)?,
                    },
                    span,
                );
                if rest.is_empty() {
                    return Ok((sliced, t));
                }
                let row = self.fresh("row");
                let (body, te) = self.index(Expr::var(row.clone(), span), elem, rest, span)?;
                Ok((
                    Expr::new(
                        ExprKind::Map {
                            param: row,
                            body: body.boxed(),
                            array: sliced.boxed(),
                        },
                        span,
                    ),
                    Type::array(te),
                ))
            }
        }
    }

    fn update(
        &mut self,
        target: &ast::Expr,
        indices: &[DimIndex],
        value: &ast::Expr,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let (a, t) = self.expr(target)?;
        let (v, tv) = self.expr(value)?;
        let tmp = self.fresh("array");
        let updated = self.update_path(Expr::var(tmp.clone(), span), &t, indices, v, &tv, span)?;
        Ok((let_in(tmp, a, updated, span), t))
    }

    fn update_path(
        &mut self,
        a: Expr,
        t: &Type,
        indices: &[DimIndex],
        v: Expr,
        tv: &Type,
        span: Span,
    ) -> EResult<Expr> {
        match indices {
            [DimIndex::Index(i), rest @ ..] => {
                let ic = self.index_expr(i)?;
                self.update_at_index(a, t, ic, rest, v, tv, span)
            }
            [DimIndex::Slice { start, end, stride }, rest @ ..] => {
                // Extension: TFP18 E-SliceUpdate
                crate::derivation::fire_rule("TFP18 E-SliceUpdate");
                // `a with [i:j:s, rest] = v` (SPEC_NOTES TFP18-27): the
                // indices the slice selects are those of `iota (length a)`
                // (bounds checked as the slice of `a` is), `v` has one row
                // per index, and each row is written by a loop.
                self.elem_type(t, span)?;
                let value_row = self.meta(span);
                self.unify(&Type::array(value_row.clone()), tv, span)?;
                let array = self.fresh("array");
                let values = self.fresh("values");
                let selected = self.fresh("indices");
                let k = self.fresh("k");
                let length = |of: &Name| {
                    Expr::new(ExprKind::Length(Expr::var(of.clone(), span).boxed()), span)
                };
                let iota_of_length = |of: &Name| {
                    Expr::new(
                        ExprKind::Intrinsic {
                            op: Intrinsic::Iota,
                            args: vec![length(of)],
                        },
                        span,
                    )
                };
                let selection = Expr::new(
                    ExprKind::Slice {
                        array: iota_of_length(&array).boxed(),
                        start: self.slice_part(start)?,
                        end: self.slice_part(end)?,
                        stride: self.slice_part(stride)?,
                    },
                    span,
                );
                let at = |of: &Name| {
                    Expr::new(
                        ExprKind::Index {
                            array: Expr::var(of.clone(), span).boxed(),
                            index: Expr::var(k.clone(), span).boxed(),
                        },
                        span,
                    )
                };
                let write_row = self.update_at_index(
                    Expr::var(array.clone(), span),
                    t,
                    at(&selected),
                    rest,
                    at(&values),
                    &value_row,
                    span,
                )?;
                let rows = Expr::new(
                    ExprKind::Loop {
                        param: array.clone(),
                        param_uniqueness: Uniqueness::Nonunique,
                        init: Expr::var(array.clone(), span).boxed(),
                        form: LoopForm::ForIn {
                            var: k.clone(),
                            array: iota_of_length(&selected).boxed(),
                        },
                        body: write_row.boxed(),
                    },
                    span,
                );
                let checked = Expr::new(
                    ExprKind::Assert {
                        condition: binop(CoreBinOp::Eq, length(&selected), length(&values), span)
                            .boxed(),
                        message: SLICE_UPDATE_SHAPE_MISMATCH.to_string(),
                        body: rows.boxed(),
                    },
                    span,
                );
                Ok(let_in(
                    array,
                    a,
                    let_in(values, v, let_in(selected, selection, checked, span), span),
                    span,
                ))
            }
            [] => Err(error(span, "an update without an index")),
        }
    }

    /// `a with [i, rest] = v` with the index `i` elaborated.
    #[allow(clippy::too_many_arguments)]
    fn update_at_index(
        &mut self,
        a: Expr,
        t: &Type,
        i: Expr,
        rest: &[DimIndex],
        v: Expr,
        tv: &Type,
        span: Span,
    ) -> EResult<Expr> {
        let elem = self.elem_type(t, span)?;
        if rest.is_empty() {
            self.unify(&elem, tv, span)?;
            return Ok(Expr::new(
                ExprKind::Update {
                    array: a.boxed(),
                    index: i.boxed(),
                    value: v.boxed(),
                },
                span,
            ));
        }
        let iv = self.fresh("i");
        let row = Expr::new(
            ExprKind::Index {
                array: a.clone().boxed(),
                index: Expr::var(iv.clone(), span).boxed(),
            },
            span,
        );
        let new_row = self.update_path(row, &elem, rest, v, tv, span)?;
        let upd = Expr::new(
            ExprKind::Update {
                array: a.boxed(),
                index: Expr::var(iv.clone(), span).boxed(),
                value: new_row.boxed(),
            },
            span,
        );
        Ok(let_in(iv, i, upd, span))
    }

    fn loop_expr(
        &mut self,
        pat: &Pat,
        init: Option<&ast::Expr>,
        form: &AstLoopForm,
        body: &ast::Expr,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let (i, ti) = match init {
            Some(e) => self.expr(e)?,
            None => {
                let Pat::Var { name, span } = pat else {
                    return Err(error(
                        span,
                        "a loop without an initial value needs a variable pattern",
                    ));
                };
                self.qual_var(&QualName::unqualified(name.clone(), *span))?
            }
        };
        let pt = self.pat_type(pat)?;
        self.unify(&pt, &ti, pat.span())?;
        let declared = Uniqueness::declared(&DeclaredUniqueness::of_pattern(pat));
        let saved = self.values.clone();
        let x = self.fresh("loop");
        let mut lets = Vec::new();
        self.bind_pat(pat, Expr::var(x.clone(), span), &ti, &mut lets)?;
        let wrap = |lets: &Vec<(Name, Expr)>, mut e: Expr| {
            for (n, v) in lets.iter().rev() {
                e = let_in(n.clone(), v.clone(), e, span);
            }
            e
        };
        let result = match form {
            AstLoopForm::For {
                var,
                var_span,
                bound,
            } => {
                self.values = saved.clone();
                let (b, tb) = self.expr(bound)?;
                self.constrain_prims(&tb, integral(), PrimType::I64, bound.span())?;
                self.values = saved.clone();
                let mut lets2 = Vec::new();
                self.bind_pat(pat, Expr::var(x.clone(), span), &ti, &mut lets2)?;
                self.values
                    .insert(var.clone(), Binding::Local(var.clone(), tb.clone()));
                let (bc, tbody) = self.expr(body)?;
                self.unify(&ti, &tbody, body.span())?;
                // `for y < e` is `for y in iota e'`, e' = e clamped at 0: a
                // negative bound runs no iteration, as in Futhark, where
                // `iota` of it would fail (SPEC_NOTES TFP18-23).
                let bound_span = bound.span();
                let mut zero = || {
                    let literal = Literal::Int {
                        value: 0,
                        suffix: None,
                    };
                    self.literal(literal, false, bound_span)
                };
                let (zero_compared, t_compared) = zero();
                let (zero_taken, t_taken) = zero();
                self.unify(&tb, &t_compared, bound_span)?;
                self.unify(&tb, &t_taken, bound_span)?;
                let n = self.fresh("bound");
                let clamped = Expr::new(
                    ExprKind::If {
                        condition: binop(
                            CoreBinOp::Lt,
                            Expr::var(n.clone(), bound_span),
                            zero_compared,
                            bound_span,
                        )
                        .boxed(),
                        then_branch: zero_taken.boxed(),
                        else_branch: Expr::var(n.clone(), bound_span).boxed(),
                    },
                    bound_span,
                );
                let iota = Expr::new(
                    ExprKind::Intrinsic {
                        op: Intrinsic::Iota,
                        args: vec![let_in(n, b, clamped, bound_span)],
                    },
                    *var_span,
                );
                Expr::new(
                    ExprKind::Loop {
                        param: x,
                        param_uniqueness: declared.clone(),
                        init: i.boxed(),
                        form: LoopForm::ForIn {
                            var: var.clone(),
                            array: iota.boxed(),
                        },
                        body: wrap(&lets2, bc).boxed(),
                    },
                    span,
                )
            }
            AstLoopForm::ForIn { pat: ypat, array } => {
                self.values = saved.clone();
                let (a, ta) = self.expr(array)?;
                let te = self.elem_type(&ta, array.span())?;
                self.values = saved.clone();
                let mut lets2 = Vec::new();
                self.bind_pat(pat, Expr::var(x.clone(), span), &ti, &mut lets2)?;
                let y = self.fresh("elem");
                let yt = self.pat_type(ypat)?;
                self.unify(&yt, &te, ypat.span())?;
                self.bind_pat(ypat, Expr::var(y.clone(), span), &te, &mut lets2)?;
                let (bc, tbody) = self.expr(body)?;
                self.unify(&ti, &tbody, body.span())?;
                Expr::new(
                    ExprKind::Loop {
                        param: x,
                        param_uniqueness: declared.clone(),
                        init: i.boxed(),
                        form: LoopForm::ForIn {
                            var: y,
                            array: a.boxed(),
                        },
                        body: wrap(&lets2, bc).boxed(),
                    },
                    span,
                )
            }
            AstLoopForm::While { condition } => {
                let (c, tc) = self.expr(condition)?;
                self.unify(&Type::bool(), &tc, condition.span())?;
                let (bc, tbody) = self.expr(body)?;
                self.unify(&ti, &tbody, body.span())?;
                Expr::new(
                    ExprKind::Loop {
                        param: x,
                        param_uniqueness: declared.clone(),
                        init: i.boxed(),
                        form: LoopForm::While {
                            condition: wrap(&lets, c).boxed(),
                        },
                        body: wrap(&lets, bc).boxed(),
                    },
                    span,
                )
            }
        };
        self.values = saved;
        Ok((result, ti))
    }

    fn binop(
        &mut self,
        op: &BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let name = op.name();
        if name.qualifiers.is_empty() && matches!(op, BinOp::Symbol(_)) {
            match name.name.as_str() {
                "|>" => return self.application(rhs, &[lhs], span),
                "<|" => return self.application(lhs, &[rhs], span),
                _ => {}
            }
        }
        let l = self.expr(lhs)?;
        let r = self.expr(rhs)?;
        self.apply_op(op, l, r, span)
    }

    /// `l op r` for elaborated operands.
    fn apply_op(
        &mut self,
        op: &BinOp,
        l: (Expr, Type),
        r: (Expr, Type),
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let name = op.name();
        let plain = name.qualifiers.is_empty()
            && matches!(op, BinOp::Symbol(_))
            && !self.values.contains_key(&name.name);
        let builtin = if plain {
            CoreBinOp::from_symbol(&name.name)
        } else {
            None
        };
        let Some(core_op) = builtin else {
            // A user-defined operator or a backticked function: application.
            let (f, tf) = self.qual_var(name)?;
            let tr = self.meta(span);
            self.unify(
                &tf,
                &Type::arrow(l.1.clone(), Type::arrow(r.1.clone(), tr.clone())),
                span,
            )?;
            return Ok((apply(apply(f, l.0, span), r.0, span), tr));
        };
        self.unify(&l.1, &r.1, span)?;
        let t = l.1.clone();
        let (set, default) = match core_op {
            CoreBinOp::And | CoreBinOp::Or => {
                ([PrimType::Bool].into_iter().collect(), PrimType::Bool)
            }
            CoreBinOp::Eq
            | CoreBinOp::Neq
            | CoreBinOp::Lt
            | CoreBinOp::Le
            | CoreBinOp::Gt
            | CoreBinOp::Ge => (all_prims(), PrimType::I32),
            CoreBinOp::BitAnd | CoreBinOp::BitOr | CoreBinOp::BitXor => {
                let mut s = integral();
                s.insert(PrimType::Bool);
                (s, PrimType::I32)
            }
            CoreBinOp::Shl | CoreBinOp::Shr | CoreBinOp::UShr => (integral(), PrimType::I32),
            _ => (numeric(), PrimType::I32),
        };
        if !matches!(core_op, CoreBinOp::Eq | CoreBinOp::Neq) {
            self.constrain_prims(&t, set, default, span)?;
        }
        let result = if core_op.is_comparison() {
            Type::bool()
        } else {
            t
        };
        Ok((binop(core_op, l.0, r.0, span), result))
    }

    fn qual_var(&mut self, q: &QualName) -> EResult<(Expr, Type)> {
        let span = q.span;
        if q.qualifiers.is_empty() {
            return self.var(&q.name, span);
        }
        let key = format!("{}.{}", q.qualifiers.join("."), q.name);
        if !self.values.contains_key(&q.qualifiers[0]) && self.qualified.contains_key(&key) {
            let binding = self.qualified[&key].clone();
            let saved = self.values.insert(key.clone(), binding);
            let result = self.var(&key, span);
            match saved {
                Some(b) => self.values.insert(key, b),
                None => self.values.remove(&key),
            };
            return result;
        }
        // `x.f.g`: a projection when `x` is a value.
        if self.values.contains_key(&q.qualifiers[0]) {
            let (mut e, mut t) = self.var(&q.qualifiers[0], span)?;
            for f in q.qualifiers[1..].iter().chain(std::iter::once(&q.name)) {
                t = self.field_type(&t, f, span)?;
                e = project(e, f.clone(), span);
            }
            return Ok((e, t));
        }
        Err(error(
            span,
            format!(
                "the qualified name {}.{} needs the module calculus",
                q.qualifiers.join("."),
                q.name
            ),
        )
        .with_code(NEEDS_MODULE_CALCULUS))
    }

    /// An intrinsic of the numeric prelude (`spec/prelude/numeric.fut`, whose
    /// header documents the list): `__prim_to_T`, `__prim_F` for the
    /// functions of [`MathFun`]. Bound only while the prelude is elaborated
    /// ([`Elaborator::allow_prelude_intrinsics`]); η-expanded to a λ over a
    /// primitive type constrained to the intrinsic's domain.
    fn prelude_intrinsic(&mut self, name: &str, span: Span) -> Option<EResult<(Expr, Type)>> {
        let rest = name.strip_prefix(PRELUDE_INTRINSIC_PREFIX)?;
        if let Some(target) = rest.strip_prefix("to_").and_then(PrimType::from_name) {
            let x = self.fresh("x");
            let from = self.meta(span);
            if let Err(e) = self.constrain_prims(&from, all_prims(), PrimType::I32, span) {
                return Some(Err(e));
            }
            let body = Expr::new(
                ExprKind::Intrinsic {
                    op: Intrinsic::Convert(target),
                    args: vec![Expr::var(x.clone(), span)],
                },
                span,
            );
            return Some(Ok((
                lambda(x, from.clone(), body, span),
                Type::arrow(from, Type::Prim(target)),
            )));
        }
        if let Some(target) = rest
            .strip_prefix("reinterpret_")
            .and_then(PrimType::from_name)
        {
            // Extension: the bits of a float or unsigned integer of the
            // target's width and the other kind, read as the target.
            let x = self.fresh("x");
            let from = self.meta(span);
            let sources: BTreeSet<PrimType> = PrimType::ALL
                .into_iter()
                .filter(|source| crate::core::primitive::reinterpretable(*source, target))
                .collect();
            let &default = sources.first()?;
            if let Err(e) = self.constrain_prims(&from, sources, default, span) {
                return Some(Err(e));
            }
            let body = Expr::new(
                ExprKind::Intrinsic {
                    op: Intrinsic::Reinterpret(target),
                    args: vec![Expr::var(x.clone(), span)],
                },
                span,
            );
            return Some(Ok((
                lambda(x, from.clone(), body, span),
                Type::arrow(from, Type::Prim(target)),
            )));
        }
        let f = MathFun::from_name(rest)?;
        let operand = self.meta(span);
        let (domain, default) = match f.domain() {
            MathDomain::Floats => (floats(), PrimType::F64),
            MathDomain::Integers => (integral(), PrimType::I32),
            MathDomain::Numbers => (numeric(), PrimType::I32),
        };
        if let Err(e) = self.constrain_prims(&operand, domain, default, span) {
            return Some(Err(e));
        }
        let names: Vec<Name> = (0..f.arity()).map(|_| self.fresh("x")).collect();
        let mut body = Expr::new(
            ExprKind::Intrinsic {
                op: Intrinsic::Math(f),
                args: names.iter().map(|n| Expr::var(n.clone(), span)).collect(),
            },
            span,
        );
        let mut t = match f {
            MathFun::IsNan | MathFun::IsInf => Type::bool(),
            MathFun::Popc | MathFun::Clz | MathFun::Ctz => Type::Prim(PrimType::I32),
            _ => operand.clone(),
        };
        for n in names.into_iter().rev() {
            body = lambda(n, operand.clone(), body, span);
            t = Type::arrow(operand.clone(), t);
        }
        Some(Ok((body, t)))
    }

    /// A use of a local polymorphic function: its definition elaborated in
    /// its own scope with fresh unknowns for its type parameters, bound as a
    /// new instance where it is defined.
    fn instantiate_local(
        &mut self,
        function: &LocalPolyFunction,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let saved = std::mem::replace(&mut self.values, function.values.clone());
        let saved_type_vars = std::mem::replace(&mut self.type_vars, function.type_vars.clone());
        let mut sizes = Vec::new();
        for tp in &function.type_params {
            match tp {
                ast::TypeParam::Size { name, .. } => sizes.push(name.clone()),
                ast::TypeParam::Type { name, .. } => {
                    let m = self.meta(span);
                    self.type_vars.insert(name.clone(), m);
                }
            }
        }
        let result = self.function(
            &function.params,
            function.return_type.as_ref(),
            &function.value,
            &sizes,
            function.span,
        );
        self.values = saved;
        self.type_vars = saved_type_vars;
        let (definition, ty) = result?;
        let instance = self.fresh(&function.name);
        self.local_instances
            .entry(function.id)
            .or_default()
            .push((instance.clone(), definition));
        Ok((Expr::var(instance, span), ty))
    }

    fn var(&mut self, name: &str, span: Span) -> EResult<(Expr, Type)> {
        match self.values.get(name).cloned() {
            Some(Binding::Local(core, t)) => Ok((Expr::var(core, span), t)),
            Some(Binding::LocalPoly(function)) => self.instantiate_local(&function, span),
            Some(Binding::Top(core, params, t)) => {
                let mut subst = BTreeMap::new();
                let mut args = Vec::new();
                for p in &params {
                    let m = self.meta(span);
                    subst.insert(p.name.clone(), m.clone());
                    args.push(m);
                }
                Ok((
                    Expr::new(
                        ExprKind::Var {
                            name: core,
                            type_args: args,
                        },
                        span,
                    ),
                    t.substitute(&subst),
                ))
            }
            None if name == "!" => {
                let x = self.fresh("x");
                let t = self.meta(span);
                let mut set = integral();
                set.insert(PrimType::Bool);
                self.constrain_prims(&t, set, PrimType::Bool, span)?;
                let body = Expr::new(
                    ExprKind::UnOp {
                        op: UnOp::Not,
                        operand: Expr::var(x.clone(), span).boxed(),
                    },
                    span,
                );
                Ok((lambda(x, t.clone(), body, span), Type::arrow(t.clone(), t)))
            }
            None => {
                if let Some((_, arity)) = INTRINSICS.iter().find(|(n, _)| *n == name) {
                    return self.eta_intrinsic(name, *arity, &[], span);
                }
                if self.prelude_intrinsics {
                    if let Some(result) = self.prelude_intrinsic(name, span) {
                        return result;
                    }
                }
                Err(error(span, format!("unknown name {name}")))
            }
        }
    }

    /// `f a1 … an`.
    fn application(
        &mut self,
        f: &ast::Expr,
        args: &[&ast::Expr],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        if let ast::Expr::Var(q) = f {
            if q.qualifiers.is_empty() && !self.values.contains_key(&q.name) {
                if let Some((name, arity)) = INTRINSICS.iter().find(|(n, _)| *n == q.name) {
                    if args.len() >= *arity {
                        let (e, t) = self.intrinsic_call(name, &args[..*arity], span)?;
                        return self.apply_rest(e, t, &args[*arity..], span);
                    }
                    return self.eta_intrinsic(name, *arity, args, span);
                }
            }
        }
        let (fe, ft) = self.expr(f)?;
        self.apply_rest(fe, ft, args, span)
    }

    fn apply_rest(
        &mut self,
        mut fe: Expr,
        mut ft: Type,
        args: &[&ast::Expr],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        for a in args {
            let (ac, at) = self.expr(a)?;
            let tr = self.meta(span);
            self.unify(&ft, &Type::arrow(at, tr.clone()), a.span())?;
            fe = apply(fe, ac, span);
            ft = tr;
        }
        Ok((fe, ft))
    }

    /// A partial application of an intrinsic: λ-abstract the missing arguments.
    fn eta_intrinsic(
        &mut self,
        name: &str,
        arity: usize,
        given: &[&ast::Expr],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let mut lets = Vec::new();
        let mut elaborated = Vec::new();
        for a in given {
            let (c, t) = self.expr(a)?;
            let v = self.fresh("arg");
            lets.push((v.clone(), c));
            elaborated.push((Expr::var(v, a.span()), t));
        }
        let mut params = Vec::new();
        for _ in given.len()..arity {
            let v = self.fresh("arg");
            let t = self.meta(span);
            params.push((v.clone(), t.clone()));
            elaborated.push((Expr::var(v, span), t));
        }
        let (mut body, mut t) = self.intrinsic_apply(name, elaborated, span)?;
        for (v, pt) in params.into_iter().rev() {
            body = lambda(v, pt.clone(), body, span);
            t = Type::arrow(pt, t);
        }
        for (v, c) in lets.into_iter().rev() {
            body = let_in(v, c, body, span);
        }
        Ok((body, t))
    }

    fn intrinsic_call(
        &mut self,
        name: &str,
        args: &[&ast::Expr],
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let mut elaborated = Vec::new();
        for a in args {
            elaborated.push(self.expr(a)?);
        }
        self.intrinsic_apply(name, elaborated, span)
    }

    /// `f` (an elaborated function of type `a1 -> … -> r`) as a λ over
    /// `params`, reusing a syntactic λ when `f` is one.
    fn as_lambda(
        &mut self,
        f: Expr,
        ft: &Type,
        params: usize,
        span: Span,
        lets: &mut Vec<(Name, Expr)>,
    ) -> EResult<PeeledFunction> {
        let mut names = Vec::new();
        let mut body = f;
        let mut t = ft.clone();
        let mut peeling = true;
        for _ in 0..params {
            let pt = self.meta(span);
            let rt = self.meta(span);
            self.unify(&t, &Type::arrow(pt.clone(), rt.clone()), span)?;
            match &body.kind {
                ExprKind::Lambda(l) if peeling => {
                    let l = l.clone();
                    names.push((l.param.clone(), pt));
                    body = l.body.clone();
                }
                _ => {
                    if names.is_empty() && !matches!(body.kind, ExprKind::Var { .. }) {
                        // Evaluate the function once, outside the SOAC.
                        let g = self.fresh("f");
                        lets.push((g.clone(), body.clone()));
                        body = Expr::var(g, span);
                    }
                    peeling = false;
                    let x = self.fresh("x");
                    names.push((x.clone(), pt));
                    body = apply(body, Expr::var(x, span), span);
                }
            }
            t = rt;
        }
        Ok((names, body, t))
    }

    fn intrinsic_apply(
        &mut self,
        name: &str,
        args: Vec<(Expr, Type)>,
        span: Span,
    ) -> EResult<(Expr, Type)> {
        let mut lets: Vec<(Name, Expr)> = Vec::new();
        let mut args = args.into_iter();
        let mut next = || args.next().ok_or_else(|| error(span, "missing argument"));
        let intr =
            |op: Intrinsic, args: Vec<Expr>| Expr::new(ExprKind::Intrinsic { op, args }, span);
        let (e, t) = match name {
            "map" | "map1" => {
                let (f, ft) = next()?;
                let (a, ta) = next()?;
                let (ps, body, rt) = self.as_lambda(f, &ft, 1, span, &mut lets)?;
                self.unify(&Type::array(ps[0].1.clone()), &ta, span)?;
                (
                    Expr::new(
                        ExprKind::Map {
                            param: ps[0].0.clone(),
                            body: body.boxed(),
                            array: a.boxed(),
                        },
                        span,
                    ),
                    Type::array(rt),
                )
            }
            "map2" | "map3" | "map4" | "map5" => {
                let k: usize = name[3..].parse().unwrap_or(2);
                let (f, ft) = next()?;
                let mut arrays = Vec::new();
                let mut elems = Vec::new();
                for _ in 0..k {
                    let (a, ta) = next()?;
                    elems.push(self.elem_type(&ta, span)?);
                    arrays.push(a);
                }
                let zipped = intr(Intrinsic::Zip(k), arrays);
                let (ps, body, rt) = self.as_lambda(f, &ft, k, span, &mut lets)?;
                let p = self.fresh("tuple");
                let mut inner = body;
                for (i, ((x, xt), et)) in ps.iter().zip(&elems).enumerate().rev() {
                    self.unify(xt, et, span)?;
                    inner = let_in(
                        x.clone(),
                        project(Expr::var(p.clone(), span), i.to_string(), span),
                        inner,
                        span,
                    );
                }
                (
                    Expr::new(
                        ExprKind::Map {
                            param: p,
                            body: inner.boxed(),
                            array: zipped.boxed(),
                        },
                        span,
                    ),
                    Type::array(rt),
                )
            }
            "reduce" | "reduce_comm" | "scan" => {
                let (f, ft) = next()?;
                let (ne, tne) = next()?;
                let (a, ta) = next()?;
                let (ps, body, rt) = self.as_lambda(f, &ft, 2, span, &mut lets)?;
                self.unify(&ps[0].1, &tne, span)?;
                self.unify(&ps[1].1, &tne, span)?;
                self.unify(&rt, &tne, span)?;
                self.unify(&Type::array(tne.clone()), &ta, span)?;
                let kind = if name == "scan" {
                    ReduceKind::Scan
                } else {
                    ReduceKind::Reduce
                };
                let t = if name == "scan" {
                    Type::array(tne)
                } else {
                    tne
                };
                (
                    Expr::new(
                        ExprKind::Reduce {
                            kind,
                            x: ps[0].0.clone(),
                            y: ps[1].0.clone(),
                            operator: body.boxed(),
                            neutral: ne.boxed(),
                            array: a.boxed(),
                        },
                        span,
                    ),
                    t,
                )
            }
            "filter" => {
                let (f, ft) = next()?;
                let (a, ta) = next()?;
                let (ps, body, rt) = self.as_lambda(f, &ft, 1, span, &mut lets)?;
                self.unify(&Type::bool(), &rt, span)?;
                self.unify(&Type::array(ps[0].1.clone()), &ta, span)?;
                (
                    Expr::new(
                        ExprKind::Filter {
                            param: ps[0].0.clone(),
                            predicate: body.boxed(),
                            array: a.boxed(),
                        },
                        span,
                    ),
                    ta,
                )
            }
            "partition" => {
                let (f, ft) = next()?;
                let (a, ta) = next()?;
                let (ps, body, rt) = self.as_lambda(f, &ft, 1, span, &mut lets)?;
                self.unify(&Type::bool(), &rt, span)?;
                self.unify(&Type::array(ps[0].1.clone()), &ta, span)?;
                let av = self.fresh("array");
                let yes = Expr::new(
                    ExprKind::Filter {
                        param: ps[0].0.clone(),
                        predicate: body.clone().boxed(),
                        array: Expr::var(av.clone(), span).boxed(),
                    },
                    span,
                );
                let not = Expr::new(
                    ExprKind::UnOp {
                        op: UnOp::Not,
                        operand: body.boxed(),
                    },
                    span,
                );
                let no = Expr::new(
                    ExprKind::Filter {
                        param: ps[0].0.clone(),
                        predicate: not.boxed(),
                        array: Expr::var(av.clone(), span).boxed(),
                    },
                    span,
                );
                let pair = Expr::new(
                    ExprKind::Record(vec![("0".into(), yes), ("1".into(), no)]),
                    span,
                );
                (let_in(av, a, pair, span), Type::tuple(vec![ta.clone(), ta]))
            }
            "reduce_by_index" => {
                let (d, td) = next()?;
                let (f, ft) = next()?;
                let (ne, tne) = next()?;
                let (is, tis) = next()?;
                let (vs, tvs) = next()?;
                let (ps, body, rt) = self.as_lambda(f, &ft, 2, span, &mut lets)?;
                for t in [&ps[0].1, &ps[1].1, &rt] {
                    self.unify(&tne, t, span)?;
                }
                self.unify(&Type::array(tne.clone()), &td, span)?;
                self.unify(&Type::array(Type::i64()), &tis, span)?;
                self.unify(&Type::array(tne), &tvs, span)?;
                (
                    Expr::new(
                        ExprKind::ReduceByIndex {
                            dest: d.boxed(),
                            x: ps[0].0.clone(),
                            y: ps[1].0.clone(),
                            operator: body.boxed(),
                            neutral: ne.boxed(),
                            indices: is.boxed(),
                            values: vs.boxed(),
                        },
                        span,
                    ),
                    td,
                )
            }
            "scatter" => {
                let (d, td) = next()?;
                let (is, tis) = next()?;
                let (vs, tvs) = next()?;
                self.unify(&Type::array(Type::i64()), &tis, span)?;
                self.unify(&td, &tvs, span)?;
                (intr(Intrinsic::Scatter, vec![d, is, vs]), td)
            }
            "iota" => {
                // Futhark's `iota : (n: i64) -> *[n]i64` (the core's `iota`
                // takes any integer type, for `for i < n`).
                let (n, tn) = next()?;
                self.unify(&Type::i64(), &tn, span)?;
                (intr(Intrinsic::Iota, vec![n]), Type::array(Type::i64()))
            }
            "replicate" => {
                let (n, tn) = next()?;
                let (v, tv) = next()?;
                self.unify(&Type::i64(), &tn, span)?;
                (intr(Intrinsic::Replicate, vec![n, v]), Type::array(tv))
            }
            "zip" | "zip3" | "zip4" | "zip5" => {
                let k: usize = if name == "zip" {
                    2
                } else {
                    name[3..].parse().unwrap_or(2)
                };
                let mut arrays = Vec::new();
                let mut elems = Vec::new();
                for _ in 0..k {
                    let (a, ta) = next()?;
                    elems.push(self.elem_type(&ta, span)?);
                    arrays.push(a);
                }
                (
                    intr(Intrinsic::Zip(k), arrays),
                    Type::array(Type::tuple(elems)),
                )
            }
            "unzip" | "unzip3" | "unzip4" | "unzip5" => {
                let k: usize = if name == "unzip" {
                    2
                } else {
                    name[5..].parse().unwrap_or(2)
                };
                let (a, ta) = next()?;
                let elems: Vec<Type> = (0..k).map(|_| self.meta(span)).collect();
                self.unify(&Type::array(Type::tuple(elems.clone())), &ta, span)?;
                (
                    intr(Intrinsic::Unzip(k), vec![a]),
                    Type::tuple(elems.into_iter().map(Type::array).collect()),
                )
            }
            "length" => {
                let (a, ta) = next()?;
                self.elem_type(&ta, span)?;
                (Expr::new(ExprKind::Length(a.boxed()), span), Type::i64())
            }
            "concat" => {
                let (a, ta) = next()?;
                let (b, tb) = next()?;
                self.unify(&ta, &tb, span)?;
                self.elem_type(&ta, span)?;
                (intr(Intrinsic::Concat, vec![a, b]), ta)
            }
            "flatten" => {
                let (a, ta) = next()?;
                let row = self.elem_type(&ta, span)?;
                self.elem_type(&row, span)?;
                (intr(Intrinsic::Flatten, vec![a]), row)
            }
            "unflatten" => {
                let (n, tn) = next()?;
                let (m, tm) = next()?;
                let (a, ta) = next()?;
                self.unify(&Type::i64(), &tn, span)?;
                self.unify(&Type::i64(), &tm, span)?;
                self.elem_type(&ta, span)?;
                (intr(Intrinsic::Unflatten, vec![n, m, a]), Type::array(ta))
            }
            "transpose" => {
                let (a, ta) = next()?;
                let row = self.elem_type(&ta, span)?;
                self.elem_type(&row, span)?;
                (intr(Intrinsic::Transpose, vec![a]), ta)
            }
            "reverse" => {
                let (a, ta) = next()?;
                self.elem_type(&ta, span)?;
                (intr(Intrinsic::Reverse, vec![a]), ta)
            }
            ast::ASSERT => {
                let (condition, condition_type) = next()?;
                let (body, body_type) = next()?;
                self.unify(&Type::bool(), &condition_type, span)?;
                (
                    Expr::new(
                        ExprKind::Assert {
                            condition: condition.boxed(),
                            message: ast::ASSERTION_FAILED.to_string(),
                            body: body.boxed(),
                        },
                        span,
                    ),
                    body_type,
                )
            }
            "rotate" => {
                let (r, tr) = next()?;
                let (a, ta) = next()?;
                self.unify(&Type::i64(), &tr, span)?;
                self.elem_type(&ta, span)?;
                (intr(Intrinsic::Rotate, vec![r, a]), ta)
            }
            other => return Err(error(span, format!("unknown intrinsic {other}"))),
        };
        let mut e = e;
        for (n, v) in lets.into_iter().rev() {
            e = let_in(n, v, e, span);
        }
        Ok((e, t))
    }
}

fn int_type(t: ast::IntType) -> PrimType {
    match t {
        ast::IntType::I8 => PrimType::I8,
        ast::IntType::I16 => PrimType::I16,
        ast::IntType::I32 => PrimType::I32,
        ast::IntType::I64 => PrimType::I64,
        ast::IntType::U8 => PrimType::U8,
        ast::IntType::U16 => PrimType::U16,
        ast::IntType::U32 => PrimType::U32,
        ast::IntType::U64 => PrimType::U64,
    }
}

fn float_type(t: ast::FloatType) -> PrimType {
    match t {
        ast::FloatType::F32 => PrimType::F32,
        ast::FloatType::F64 => PrimType::F64,
    }
}

/// The value of a literal at its inferred type: integers must fit (a
/// negated literal may reach the type's minimum); an integer literal at a
/// float type is that float; a float literal must round to a finite value
/// of its type.
fn literal_value(lit: Literal, negative: bool, t: &Type) -> Result<PrimValue, String> {
    let Type::Prim(p) = t else {
        return Err(format!(
            "a numeric literal cannot have type {}",
            type_name(t)
        ));
    };
    let p = *p;
    match lit {
        Literal::Int { value, .. } => {
            if p.is_float() {
                let v = if negative {
                    -(value as f64)
                } else {
                    value as f64
                };
                return Ok(crate::core::primitive::convert(PrimValue::F64(v), p));
            }
            let v: i128 = if negative {
                -(value as i128)
            } else {
                value as i128
            };
            let Some((lo, hi)) = p.integer_range() else {
                return Err(format!("an integer literal cannot have type {p}"));
            };
            if v < lo || v > hi {
                // Extension: TFP18 T-LiteralRange
                crate::derivation::fire_rule("TFP18 T-LiteralRange");
                return Err(format!("the literal {v} does not fit in {p}"));
            }
            Ok(crate::core::primitive::convert(PrimValue::I64(v as i64), p).pipe_u64(v, p))
        }
        Literal::Float { bits, .. } => {
            let v = f64::from_bits(bits);
            let v = if negative { -v } else { v };
            if !p.is_float() {
                return Err(format!("a float literal cannot have type {p}"));
            }
            let value = crate::core::primitive::convert(PrimValue::F64(v), p);
            let finite = match value {
                PrimValue::F32(x) => x.is_finite(),
                PrimValue::F64(x) => x.is_finite(),
                _ => true,
            };
            if !finite {
                crate::derivation::fire_rule("TFP18 T-LiteralRange");
                return Err(format!("the literal {v:e} does not fit in {p}"));
            }
            Ok(value)
        }
        Literal::Bool(b) => Ok(PrimValue::Bool(b)),
    }
}

trait PipeU64 {
    fn pipe_u64(self, v: i128, p: PrimType) -> PrimValue;
}

impl PipeU64 for PrimValue {
    /// `u64` literals above `i64::MAX` do not survive the detour through i64.
    fn pipe_u64(self, v: i128, p: PrimType) -> PrimValue {
        if p == PrimType::U64 {
            PrimValue::U64(v as u64)
        } else {
            self
        }
    }
}

/// Rewrites an expression bottom-up where `f` gives a replacement (the
/// replacement is not rewritten further).
fn rewrite(e: &Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
    if let Some(r) = f(e) {
        return r;
    }
    // Rebuild children through the type map with an identity on types,
    // then rewrite the children.
    crate::core::syntax::map_children(e, &mut |child| rewrite(child, f))
}

/// The variable of a pattern that is a variable, possibly ascribed.
fn simple_var(p: &Pat) -> Option<&Name> {
    match p {
        Pat::Var { name, .. } => Some(name),
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => simple_var(pat),
        _ => None,
    }
}

/// Substitutes size and type arguments into a type expression (also the
/// module path's expansion of sized abbreviations, SPEC_NOTES ICFP18-27).
pub(crate) fn substitute_type_exp(
    te: &TypeExp,
    sizes: &BTreeMap<Name, SizeExp>,
    types: &BTreeMap<Name, TypeExp>,
) -> TypeExp {
    match te {
        TypeExp::Var(q) if q.qualifiers.is_empty() && types.contains_key(&q.name) => {
            types[&q.name].clone()
        }
        TypeExp::Sum { .. } | TypeExp::Existential { .. } => te.clone(),
        _ => {
            let Ok(substituted) = te.try_map_sizes_and_children(
                &mut (),
                |(), size| Ok::<_, std::convert::Infallible>(substitute_size(size, sizes)),
                |(), t, _bound| Ok(substitute_type_exp(t, sizes, types)),
            );
            substituted
        }
    }
}

fn substitute_size(size: &SizeExp, sizes: &BTreeMap<Name, SizeExp>) -> SizeExp {
    match size {
        SizeExp::Named(q) if q.qualifiers.is_empty() && sizes.contains_key(&q.name) => {
            sizes[&q.name].clone()
        }
        // A size expression of an abbreviation with size parameters may
        // name them: it stays an unknown size (SPEC_NOTES TFP18-25).
        SizeExp::Expression(_) if !sizes.is_empty() => SizeExp::Anonymous,
        other => other.clone(),
    }
}
