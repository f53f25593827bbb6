//! The translation `E ⊢ e ⇝ ⟨e', sv⟩` (TFP'18 §3 Fig. 5, with the lambda
//! lifting of §5.3): each expression of the monomorphic core becomes an
//! expression computing its value's representation, together with its
//! static value ([`super::static_value`]).
//!
//! * A function-typed expression (lambda, local or top-level function,
//!   partial application) is translated to its closure record; its static
//!   value `Lam` remembers the code and the static values of what it
//!   captured and of the arguments applied so far.
//! * A partial application only extends the closure record: no code is
//!   generated, so partial applications never multiply functions.
//! * A saturating application either inlines the code (trivial bodies, and
//!   always inside SOAC lambdas) or calls a *lifted* first-order function
//!   whose first parameter destructures the closure record; lifted functions
//!   are memoised by (code, number of applied arguments, shapes of the
//!   captured and argument static values), so each lambda is lifted once per
//!   static environment shape.
//! * A function argument of a SOAC becomes a first-order lambda that refers
//!   to the closure's variables directly.
//!
//! Every binder is renamed to a fresh name as it is translated (a body
//! translated twice — two lifted instances, an inlined lambda — binds
//! different names), so the output keeps the core's unique-name invariant.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;

use super::free_vars::{free_variables, is_trivial};
use super::static_value::{or_constructor, Closure, LambdaSource, Shape, StaticVal};
use crate::core::{
    Case, Definition, DimIndex, Expr, ExprKind, FieldName, Function, LoopForm, NameSource, Pat,
    PatKind, Program, Size, Type, VarName,
};

/// Bodies of at most this many nodes (and no binders) are inlined at every
/// saturating application instead of being lifted.
const TRIVIAL_BODY_NODES: usize = 12;

/// Trivial bodies are inlined inside at most this many enclosing inlined
/// bodies; a deeper one is lifted (memoised) instead. Without the bound a
/// chain of trivial wrappers (`M_i.add a b = M_{i-1}.add a b` in a functor
/// tower) is copied whole at every use, and the output grows with the
/// product of the chain lengths (cubically in the functor tower); with it
/// each application expands to a bounded amount of code.
const MAX_INLINE_DEPTH: usize = 4;

/// What the defunctionaliser did, for `--timings` and the tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefuncStats {
    /// Lifted first-order functions created (entry points excluded).
    pub lifted: usize,
    /// Saturating applications answered by an already lifted instance.
    pub reused: usize,
    /// Saturating applications inlined.
    pub inlined: usize,
}

type DefuncResult<T> = Result<T, Diagnostic>;
type Translated<'p> = (Expr, StaticVal<'p>);

/// A local variable: its name in the output and its static value.
#[derive(Clone, Debug)]
struct Binding<'p> {
    name: VarName,
    sv: StaticVal<'p>,
}

/// Local variables in scope, by their id in the input program.
type Env<'p> = imbl::HashMap<u32, Binding<'p>>;

/// A top-level definition of the input.
enum Global<'p> {
    /// A function: lifted at its applications.
    Function(LambdaSource<'p>),
    /// A constant, translated once (its static value may be a closure).
    Constant(Binding<'p>),
}

/// A lifted instance: its name and type, whether it takes the closure
/// record first, and the static value of its result.
#[derive(Clone)]
struct Lifted<'p> {
    name: VarName,
    ty: Type,
    takes_closure: bool,
    result: StaticVal<'p>,
}

type MemoKey = (usize, usize, Vec<Shape>);

/// The defunctionaliser's state for one program.
pub struct Defunctionaliser<'p> {
    names: NameSource,
    globals: HashMap<u32, Global<'p>>,
    output: Vec<Definition>,
    memo: HashMap<MemoKey, Lifted<'p>>,
    stats: DefuncStats,
    /// How many inlined bodies enclose the expression being translated (0
    /// in a lifted function's or an entry point's own body).
    inline_depth: usize,
}

/// An internal error: the type checker's TFP'18 restrictions should have made
/// it impossible.
fn internal(span: Span, message: &str) -> Diagnostic {
    Diagnostic::error(format!("internal error in defunctionalisation: {message}"))
        .with_code("internal")
        .with_primary(span, "while defunctionalising this")
        .with_note(
            "the type checker's restrictions (TFP'18 §2.2) should rule this out; please report it",
        )
}

fn expr(kind: ExprKind, ty: Type, span: Span) -> Expr {
    Expr { kind, ty, span }
}

fn var_expr(name: &VarName, ty: Type, span: Span) -> Expr {
    expr(
        ExprKind::Var {
            name: name.clone(),
            instance: Default::default(),
        },
        ty,
        span,
    )
}

fn var_pat(name: &VarName, ty: Type, span: Span) -> Pat {
    Pat {
        kind: PatKind::Var(name.clone()),
        ty,
        span,
    }
}

fn let_in(pat: Pat, value: Expr, body: Expr) -> Expr {
    let span = value.span;
    let ty = body.ty.clone();
    expr(
        ExprKind::Let {
            sizes: Vec::new(),
            pat,
            value: Box::new(value),
            body: Box::new(body),
        },
        ty,
        span,
    )
}

/// Whether evaluating `e` twice costs nothing and cannot fail.
fn is_atomic(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var { .. } | ExprKind::Literal(_) => true,
        ExprKind::Record(fields) => fields.iter().all(|(_, e)| is_atomic(e)),
        ExprKind::Project { record, .. } => is_atomic(record),
        _ => false,
    }
}

/// The source of a named function.
fn function_source(function: &Function) -> LambdaSource<'_> {
    LambdaSource {
        id: &function.body as *const Expr as usize,
        name: &function.name.base,
        size_params: &function.size_params,
        params: &function.params,
        result: Some(&function.result),
        body: &function.body,
        span: function.span,
    }
}

fn mentions_size(ty: &Type, id: u32) -> bool {
    match ty {
        Type::Prim(_) | Type::Param(_) => false,
        Type::Array { size, element } => {
            matches!(size, Size::Var(v) if v.id == id) || mentions_size(element, id)
        }
        Type::Record(fields) => fields.values().any(|t| mentions_size(t, id)),
        Type::Sum(constructors) => constructors
            .values()
            .flatten()
            .any(|t| mentions_size(t, id)),
        Type::Arrow { from, to, .. } => mentions_size(from, id) || mentions_size(to, id),
    }
}

impl<'p> Defunctionaliser<'p> {
    pub fn new(next_id: u32) -> Defunctionaliser<'p> {
        Defunctionaliser {
            names: NameSource::starting_at(next_id),
            globals: HashMap::new(),
            output: Vec::new(),
            memo: HashMap::new(),
            stats: DefuncStats::default(),
            inline_depth: 0,
        }
    }

    /// Translates a whole monomorphic program.
    pub fn program(mut self, program: &'p Program) -> DefuncResult<(Program, DefuncStats)> {
        for definition in &program.definitions {
            let function = &definition.function;
            if !function.type_params.is_empty() {
                return Err(internal(
                    function.span,
                    "a polymorphic definition reached defunctionalisation (monomorphisation missed it)",
                ));
            }
            if definition.entry {
                let entry = self.entry_point(function)?;
                self.output.push(Definition {
                    entry: true,
                    function: entry,
                });
            }
            // An entry point with parameters is also an ordinary function:
            // later definitions (other entry points among them) may call it.
            if function.params.is_empty() {
                if !definition.entry {
                    self.constant(function)?;
                }
            } else {
                self.globals.insert(
                    function.name.id,
                    Global::Function(function_source(function)),
                );
            }
        }
        let program = Program {
            definitions: self.output,
            next_id: self.names.next_id(),
        };
        Ok((program, self.stats))
    }

    fn fresh(&mut self, like: &VarName) -> VarName {
        self.names.var(&like.base)
    }

    /// A top-level constant: translated once; its uses refer to it.
    fn constant(&mut self, function: &'p Function) -> DefuncResult<()> {
        let (body, sv) = self.expression(&Env::new(), &function.body)?;
        let name = self.fresh(&function.name);
        let result = body.ty.clone();
        self.output.push(Definition {
            entry: false,
            function: Function {
                name: name.clone(),
                type_params: Vec::new(),
                size_params: Vec::new(),
                params: Vec::new(),
                result,
                body,
                span: function.span,
                uniqueness: function.uniqueness.clone(),
            },
        });
        self.globals
            .insert(function.name.id, Global::Constant(Binding { name, sv }));
        Ok(())
    }

    /// An entry point: first-order parameters and result (checked by the
    /// type checker), translated in place.
    fn entry_point(&mut self, function: &'p Function) -> DefuncResult<Function> {
        let mut env = Env::new();
        let size_params = self.bind_sizes(&mut env, &function.size_params);
        let mut params = Vec::new();
        for param in &function.params {
            if param.ty.contains_function() {
                return Err(internal(param.span, "an entry point takes a function"));
            }
            params.push(self.dynamic_pattern(&mut env, param)?);
        }
        let (body, sv) = self.expression(&env, &function.body)?;
        if !sv.is_dynamic() {
            return Err(internal(function.span, "an entry point returns a function"));
        }
        let result = self.translate_type(&env, &function.result);
        Ok(Function {
            name: self.fresh(&function.name),
            type_params: Vec::new(),
            size_params,
            params,
            result,
            body,
            span: function.span,
            uniqueness: function.uniqueness.clone(),
        })
    }

    fn bind_sizes(&mut self, env: &mut Env<'p>, sizes: &[VarName]) -> Vec<VarName> {
        sizes
            .iter()
            .map(|size| {
                let name = self.fresh(size);
                env.insert(
                    size.id,
                    Binding {
                        name: name.clone(),
                        sv: StaticVal::Dyn(Type::I64),
                    },
                );
                name
            })
            .collect()
    }

    /// A type of the input in the output's scope: size variables renamed,
    /// sizes whose variable is not in scope forgotten.
    fn translate_type(&self, env: &Env<'p>, ty: &Type) -> Type {
        match ty {
            Type::Prim(_) | Type::Param(_) => ty.clone(),
            Type::Array { size, element } => {
                let size = match size {
                    Size::Var(var) => match env.get(&var.id) {
                        Some(binding) => Size::Var(binding.name.clone()),
                        None => match self.globals.get(&var.id) {
                            Some(Global::Constant(binding)) => Size::Var(binding.name.clone()),
                            _ => Size::Unknown,
                        },
                    },
                    other => other.clone(),
                };
                Type::array(size, self.translate_type(env, element))
            }
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), self.translate_type(env, ty)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload
                                .iter()
                                .map(|t| self.translate_type(env, t))
                                .collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { from, to, .. } => {
                Type::arrow(self.translate_type(env, from), self.translate_type(env, to))
            }
        }
    }

    // -----------------------------------------------------------------------
    // Patterns

    /// A pattern matching a first-order value: every variable is renamed and
    /// bound to `Dyn` of its declared type (sizes may refer to variables the
    /// pattern bound earlier).
    fn dynamic_pattern(&mut self, env: &mut Env<'p>, pat: &'p Pat) -> DefuncResult<Pat> {
        let kind = match &pat.kind {
            PatKind::Var(name) => {
                let ty = self.translate_type(env, &pat.ty);
                let new = self.fresh(name);
                env.insert(
                    name.id,
                    Binding {
                        name: new.clone(),
                        sv: StaticVal::Dyn(ty.clone()),
                    },
                );
                return Ok(var_pat(&new, ty, pat.span));
            }
            PatKind::Wildcard => PatKind::Wildcard,
            PatKind::Literal(value) => PatKind::Literal(*value),
            PatKind::Record(fields) => {
                let mut out = Vec::new();
                for (field, sub) in fields {
                    out.push((field.clone(), self.dynamic_pattern(env, sub)?));
                }
                PatKind::Record(out)
            }
            PatKind::Constructor { name, payload } => {
                let mut out = Vec::new();
                for sub in payload {
                    out.push(self.dynamic_pattern(env, sub)?);
                }
                PatKind::Constructor {
                    name: name.clone(),
                    payload: out,
                }
            }
        };
        let ty = self.translate_type(env, &pat.ty);
        Ok(Pat {
            kind,
            ty,
            span: pat.span,
        })
    }

    /// A pattern matching a value of static value `sv` (TFP'18's pattern
    /// rules: a variable is bound to the static value, a record pattern
    /// splits a record's static value).
    fn pattern(
        &mut self,
        env: &mut Env<'p>,
        pat: &'p Pat,
        sv: &StaticVal<'p>,
    ) -> DefuncResult<Pat> {
        if sv.is_dynamic() && !pat.ty.contains_function() {
            return self.dynamic_pattern(env, pat);
        }
        match &pat.kind {
            PatKind::Var(name) => {
                let new = self.fresh(name);
                env.insert(
                    name.id,
                    Binding {
                        name: new.clone(),
                        sv: sv.clone(),
                    },
                );
                Ok(var_pat(&new, sv.representation_type(), pat.span))
            }
            PatKind::Wildcard => Ok(Pat {
                kind: PatKind::Wildcard,
                ty: sv.representation_type(),
                span: pat.span,
            }),
            PatKind::Record(fields) => {
                let mut out = Vec::new();
                let mut types = BTreeMap::new();
                for (field, sub) in fields {
                    let field_sv = sv.field(field).ok_or_else(|| {
                        internal(sub.span, "a record pattern's field is not in the value")
                    })?;
                    let sub = self.pattern(env, sub, &field_sv)?;
                    types.insert(field.clone(), sub.ty.clone());
                    out.push((field.clone(), sub));
                }
                Ok(Pat {
                    kind: PatKind::Record(out),
                    ty: Type::Record(Rc::new(types)),
                    span: pat.span,
                })
            }
            PatKind::Literal(_) | PatKind::Constructor { .. } => Err(internal(
                pat.span,
                "a refutable pattern matches a function value",
            )),
        }
    }

    /// The pattern binding a closure record in a lifted or inlined body: the
    /// captured variables, then the parameters already applied.
    fn closure_pattern(
        &mut self,
        env: &mut Env<'p>,
        closure: &Closure<'p>,
        span: Span,
    ) -> DefuncResult<Pat> {
        let mut fields = Vec::new();
        let mut types = BTreeMap::new();
        for (index, (captured, sv)) in closure.captured.iter().enumerate() {
            let name = self.fresh(captured);
            env.insert(
                captured.id,
                Binding {
                    name: name.clone(),
                    sv: sv.clone(),
                },
            );
            let ty = sv.representation_type();
            types.insert(FieldName::position(index), ty.clone());
            fields.push((FieldName::position(index), var_pat(&name, ty, span)));
        }
        for (offset, sv) in closure.applied.iter().enumerate() {
            let index = closure.captured.len() + offset;
            let pat = self.pattern(env, &closure.source.params[offset], sv)?;
            types.insert(FieldName::position(index), pat.ty.clone());
            fields.push((FieldName::position(index), pat));
        }
        Ok(Pat {
            kind: PatKind::Record(fields),
            ty: Type::Record(Rc::new(types)),
            span,
        })
    }

    // -----------------------------------------------------------------------
    // Functions and applications

    /// A closure value for `source` in `env`: the record of the captured
    /// local variables.
    fn closure_value(
        &mut self,
        env: &Env<'p>,
        source: LambdaSource<'p>,
        span: Span,
    ) -> Translated<'p> {
        let mut captured = Vec::new();
        let mut fields = Vec::new();
        for name in free_variables(source.size_params, source.params, source.body) {
            if let Some(binding) = env.get(&name.id) {
                let index = FieldName::position(captured.len());
                fields.push((
                    index,
                    var_expr(&binding.name, binding.sv.representation_type(), span),
                ));
                captured.push((name, binding.sv.clone()));
            }
        }
        let sv = StaticVal::Lam(Rc::new(Closure {
            source,
            captured,
            applied: Vec::new(),
        }));
        let ty = sv.representation_type();
        (expr(ExprKind::Record(fields), ty, span), sv)
    }

    /// `function a1 … an` where `function`'s representation is `rep` and its
    /// static value `sv`: partial applications extend the closure record,
    /// saturating ones call (or inline) the code; surplus arguments apply to
    /// the result.
    fn apply(
        &mut self,
        mut rep: Expr,
        mut sv: StaticVal<'p>,
        mut args: Vec<Translated<'p>>,
        span: Span,
        force_inline: bool,
    ) -> DefuncResult<Translated<'p>> {
        loop {
            let closure = match &sv {
                StaticVal::Lam(closure) => closure.clone(),
                StaticVal::Or(alternatives) => {
                    return self.apply_alternatives(
                        rep,
                        alternatives.clone(),
                        args,
                        span,
                        force_inline,
                    )
                }
                _ => {
                    return Err(internal(
                        span,
                        "an application of a value that is not statically a function",
                    ))
                }
            };
            let remaining = closure.remaining();
            if args.len() < remaining {
                return Ok(self.partial_application(rep, &closure, args, span));
            }
            let surplus = args.split_off(remaining);
            let (result, result_sv) = self.saturated(rep, &closure, args, span, force_inline)?;
            if surplus.is_empty() {
                return Ok((result, result_sv));
            }
            rep = result;
            sv = result_sv;
            args = surplus;
        }
    }

    /// The application of an `Or` value: the arguments bound once, then a
    /// `match` applying each alternative.
    fn apply_alternatives(
        &mut self,
        rep: Expr,
        alternatives: Vec<StaticVal<'p>>,
        args: Vec<Translated<'p>>,
        span: Span,
        force_inline: bool,
    ) -> DefuncResult<Translated<'p>> {
        let mut lets = Vec::new();
        let mut bound = Vec::new();
        for (arg, sv) in args {
            if is_atomic(&arg) {
                bound.push((arg, sv));
            } else {
                let name = self.names.var("arg");
                let ty = arg.ty.clone();
                lets.push((var_pat(&name, ty.clone(), span), arg));
                bound.push((var_expr(&name, ty, span), sv));
            }
        }
        let (result, sv) = self.case_or(
            rep,
            &alternatives,
            span,
            None,
            &mut |this, part, alternative| {
                this.apply(part, alternative.clone(), bound.clone(), span, force_inline)
            },
        )?;
        let result = lets
            .into_iter()
            .rev()
            .fold(result, |body, (pat, value)| let_in(pat, value, body));
        Ok((result, sv))
    }

    /// A partial application: the closure record with the arguments added.
    fn partial_application(
        &mut self,
        rep: Expr,
        closure: &Closure<'p>,
        args: Vec<Translated<'p>>,
        span: Span,
    ) -> Translated<'p> {
        let old_count = closure.captured.len() + closure.applied.len();
        let (binding, mut components) = self.components(rep, old_count, span);
        let mut applied = closure.applied.clone();
        for (arg, arg_sv) in args {
            components.push(arg);
            applied.push(arg_sv);
        }
        let sv = StaticVal::Lam(Rc::new(Closure {
            source: closure.source,
            captured: closure.captured.clone(),
            applied,
        }));
        let record = expr(
            ExprKind::Record(
                components
                    .into_iter()
                    .enumerate()
                    .map(|(index, e)| (FieldName::position(index), e))
                    .collect(),
            ),
            sv.representation_type(),
            span,
        );
        let result = match binding {
            Some(pat_and_value) => let_in(pat_and_value.0, pat_and_value.1, record),
            None => record,
        };
        (result, sv)
    }

    /// The `count` components of a record representation: its fields when it
    /// is a record literal, else projections of a fresh variable bound to it.
    fn components(
        &mut self,
        rep: Expr,
        count: usize,
        span: Span,
    ) -> (Option<(Pat, Expr)>, Vec<Expr>) {
        if let ExprKind::Record(fields) = rep.kind {
            return (None, fields.into_iter().map(|(_, e)| e).collect());
        }
        let field_types: Vec<Type> = match &rep.ty {
            Type::Record(fields) => fields.values().cloned().collect(),
            _ => Vec::new(),
        };
        let name = self.names.var("closure");
        let whole = var_expr(&name, rep.ty.clone(), span);
        let components = (0..count)
            .map(|index| {
                expr(
                    ExprKind::Project {
                        record: Box::new(whole.clone()),
                        field: FieldName::position(index),
                    },
                    field_types.get(index).cloned().unwrap_or_else(Type::unit),
                    span,
                )
            })
            .collect();
        (
            Some((var_pat(&name, rep.ty.clone(), span), rep)),
            components,
        )
    }

    fn saturated(
        &mut self,
        rep: Expr,
        closure: &Closure<'p>,
        args: Vec<Translated<'p>>,
        span: Span,
        force_inline: bool,
    ) -> DefuncResult<Translated<'p>> {
        let source = closure.source;
        let trivial = source.size_params.is_empty() && is_trivial(source.body, TRIVIAL_BODY_NODES);
        if force_inline || (trivial && self.inline_depth < MAX_INLINE_DEPTH) {
            self.stats.inlined += 1;
            self.inline_depth += 1;
            let result = self.inlined_call(rep, closure, args, span);
            self.inline_depth -= 1;
            result
        } else {
            self.lifted_call(rep, closure, args, span)
        }
    }

    /// The body of the code, inlined: `let closure-pattern = rep in let p1 =
    /// a1 in … body`, size parameters bound by the first `let` whose pattern
    /// mentions them.
    fn inlined_call(
        &mut self,
        rep: Expr,
        closure: &Closure<'p>,
        args: Vec<Translated<'p>>,
        span: Span,
    ) -> DefuncResult<Translated<'p>> {
        let source = closure.source;
        let mut env = Env::new();
        let sizes = self.bind_sizes(&mut env, source.size_params);
        let mut lets: Vec<(Vec<VarName>, Pat, Expr)> = Vec::new();
        if closure.captured.len() + closure.applied.len() > 0 {
            let pat = self.closure_pattern(&mut env, closure, span)?;
            lets.push((Vec::new(), pat, rep));
        } else if !is_atomic(&rep) {
            lets.push((
                Vec::new(),
                Pat {
                    kind: PatKind::Wildcard,
                    ty: rep.ty.clone(),
                    span,
                },
                rep,
            ));
        }
        let first = closure.applied.len();
        for (param, (arg, arg_sv)) in source.params[first..].iter().zip(args) {
            let pat = self.pattern(&mut env, param, &arg_sv)?;
            lets.push((Vec::new(), pat, arg));
        }
        for size in sizes {
            let holder = lets
                .iter_mut()
                .find(|(_, pat, _)| mentions_size(&pat.ty, size.id))
                .ok_or_else(|| internal(span, "a size parameter occurs in no parameter"))?;
            holder.0.push(size);
        }
        let (body, sv) = self.expression(&env, source.body)?;
        // The `let`s' type may not name the sizes they bind.
        let mut bound = std::collections::HashSet::new();
        for (sizes, pat, _) in &lets {
            bound.extend(sizes.iter().map(|s| s.id));
            bound.extend(pat.bound_vars().into_iter().map(|(name, _)| name.id));
        }
        let outer_ty = forget_sizes(&body.ty, &bound);
        // Nor may the static value: a record built around the call takes
        // its type from it (value campaign, seed 17).
        let sv = sv.map_types(&|ty| forget_sizes(ty, &bound));
        let result = lets
            .into_iter()
            .rev()
            .fold(body, |body, (sizes, pat, value)| {
                let ty = outer_ty.clone();
                expr(
                    ExprKind::Let {
                        sizes,
                        pat,
                        value: Box::new(value),
                        body: Box::new(body),
                    },
                    ty,
                    span,
                )
            });
        Ok((result, sv))
    }

    /// A call of the lifted instance of the code for these static values,
    /// lifting it first if this is the first such call.
    fn lifted_call(
        &mut self,
        rep: Expr,
        closure: &Closure<'p>,
        args: Vec<Translated<'p>>,
        span: Span,
    ) -> DefuncResult<Translated<'p>> {
        let source = closure.source;
        let mut shapes: Vec<Shape> = closure.captured.iter().map(|(_, sv)| sv.shape()).collect();
        shapes.extend(closure.applied.iter().map(StaticVal::shape));
        shapes.extend(args.iter().map(|(_, sv)| sv.shape()));
        let key = (source.id, closure.applied.len(), shapes);
        let lifted = match self.memo.get(&key) {
            Some(lifted) => {
                self.stats.reused += 1;
                lifted.clone()
            }
            None => {
                let arg_svs: Vec<StaticVal<'p>> =
                    args.iter().map(|(_, sv)| sv.without_sizes()).collect();
                // The lifted body is a function of its own: inlining
                // inside it starts again from depth 0.
                let outer_depth = std::mem::replace(&mut self.inline_depth, 0);
                let lifted = self.lift(closure, &arg_svs);
                self.inline_depth = outer_depth;
                let lifted = lifted?;
                self.memo.insert(key, lifted.clone());
                lifted
            }
        };
        let mut call_args = Vec::new();
        let mut discarded = None;
        if lifted.takes_closure {
            call_args.push(rep);
        } else if !is_atomic(&rep) {
            discarded = Some(rep);
        }
        call_args.extend(args.into_iter().map(|(arg, _)| arg));
        let result_ty = lifted.result.representation_type();
        let call = expr(
            ExprKind::Apply {
                function: Box::new(var_expr(&lifted.name, lifted.ty.clone(), span)),
                args: call_args,
            },
            result_ty,
            span,
        );
        let call = match discarded {
            Some(value) => {
                let pat = Pat {
                    kind: PatKind::Wildcard,
                    ty: value.ty.clone(),
                    span,
                };
                let_in(pat, value, call)
            }
            None => call,
        };
        Ok((call, lifted.result))
    }

    /// Lambda lifting (TFP'18 §5.3): a first-order top-level function taking
    /// the closure record (when not empty) and the remaining parameters.
    fn lift(
        &mut self,
        closure: &Closure<'p>,
        arg_svs: &[StaticVal<'p>],
    ) -> DefuncResult<Lifted<'p>> {
        let source = closure.source;
        let closure = Closure {
            source,
            captured: closure
                .captured
                .iter()
                .map(|(name, sv)| (name.clone(), sv.without_sizes()))
                .collect(),
            applied: closure
                .applied
                .iter()
                .map(StaticVal::without_sizes)
                .collect(),
        };
        let mut env = Env::new();
        let size_params = self.bind_sizes(&mut env, source.size_params);
        let mut params = Vec::new();
        let takes_closure = closure.captured.len() + closure.applied.len() > 0;
        if takes_closure {
            params.push(self.closure_pattern(&mut env, &closure, source.span)?);
        }
        let first = closure.applied.len();
        for (param, sv) in source.params[first..].iter().zip(arg_svs) {
            params.push(self.pattern(&mut env, param, sv)?);
        }
        let (body, body_sv) = self.expression(&env, source.body)?;
        let result = match (&body_sv, source.result) {
            (StaticVal::Dyn(_), Some(declared)) => self.translate_type(&env, declared),
            _ => body_sv.representation_type().without_sizes(),
        };
        let result_sv = match &body_sv {
            StaticVal::Dyn(_) => StaticVal::Dyn(result.without_sizes()),
            other => other.without_sizes(),
        };
        let name = self.names.var(source.name);
        let function = Function {
            name: name.clone(),
            type_params: Vec::new(),
            size_params,
            params,
            result,
            body,
            span: source.span,
            uniqueness: Default::default(),
        };
        // Call sites see the type without sizes: the function's own size
        // parameters are not in scope there.
        let ty = function.ty().without_sizes();
        self.output.push(Definition {
            entry: false,
            function,
        });
        self.stats.lifted += 1;
        Ok(Lifted {
            name,
            ty,
            takes_closure,
            result: result_sv,
        })
    }

    /// A function argument of a SOAC as a first-order lambda whose body
    /// applies the closure (always inlined: the lambda refers to the
    /// closure's variables directly).
    fn soac_lambda(
        &mut self,
        env: &Env<'p>,
        rep: Expr,
        sv: StaticVal<'p>,
        ty: &Type,
        span: Span,
    ) -> DefuncResult<Expr> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut current = ty;
        while let Some((from, to)) = current.as_arrow() {
            let name = self.names.var("x");
            let from = self.translate_type(env, from);
            params.push(var_pat(&name, from.clone(), span));
            args.push((
                var_expr(&name, from.clone(), span),
                StaticVal::Dyn(from.clone()),
            ));
            current = to;
        }
        let (body, body_sv) = self.apply(rep, sv, args, span, true)?;
        if !body_sv.is_dynamic() {
            return Err(internal(span, "a SOAC's function returns a function"));
        }
        // The lambda's type in the SOAC's scope (its body's type may name
        // sizes bound inside it).
        let lambda_ty = self.translate_type(env, ty);
        Ok(expr(
            ExprKind::Lambda {
                params,
                body: Box::new(body),
            },
            lambda_ty,
            span,
        ))
    }

    // -----------------------------------------------------------------------
    // Expressions

    fn dynamic(&mut self, env: &Env<'p>, e: &'p Expr) -> DefuncResult<Expr> {
        let (out, sv) = self.expression(env, e)?;
        if sv.is_dynamic() {
            Ok(out)
        } else {
            Err(internal(
                e.span,
                "a function value where a first-order value is needed",
            ))
        }
    }

    fn boxed(&mut self, env: &Env<'p>, e: &'p Expr) -> DefuncResult<Box<Expr>> {
        Ok(Box::new(self.dynamic(env, e)?))
    }

    fn indices(&mut self, env: &Env<'p>, indices: &'p [DimIndex]) -> DefuncResult<Vec<DimIndex>> {
        indices
            .iter()
            .map(|index| {
                Ok(match index {
                    DimIndex::Index(e) => DimIndex::Index(self.dynamic(env, e)?),
                    DimIndex::Slice { start, end, stride } => DimIndex::Slice {
                        start: start.as_ref().map(|e| self.dynamic(env, e)).transpose()?,
                        end: end.as_ref().map(|e| self.dynamic(env, e)).transpose()?,
                        stride: stride.as_ref().map(|e| self.dynamic(env, e)).transpose()?,
                    },
                })
            })
            .collect()
    }

    /// The static value of an `if`/`match` from those of its branches:
    /// `Dyn` of `dynamic` when all are first-order, the common value when
    /// all have one shape, else TFP'18 §7's `Or` of the distinct shapes.
    fn join(branches: &[StaticVal<'p>], dynamic: Type) -> StaticVal<'p> {
        if branches.iter().all(StaticVal::is_dynamic) {
            return StaticVal::Dyn(dynamic);
        }
        let mut alternatives: Vec<StaticVal<'p>> = Vec::new();
        for sv in branches {
            let parts = match sv {
                StaticVal::Or(parts) => parts.clone(),
                other => vec![other.clone()],
            };
            for part in parts {
                if !alternatives.iter().any(|a| a.shape() == part.shape()) {
                    alternatives.push(part);
                }
            }
        }
        if alternatives.len() == 1 {
            alternatives.pop().expect("one alternative")
        } else {
            StaticVal::Or(alternatives)
        }
    }

    /// A value of static value `from` as a value of `target` (the join of
    /// `from` and others): tagged with its alternative when `target` is an
    /// `Or`.
    fn inject(
        &mut self,
        value: Expr,
        from: &StaticVal<'p>,
        target: &StaticVal<'p>,
        span: Span,
    ) -> DefuncResult<Expr> {
        let StaticVal::Or(alternatives) = target else {
            return Ok(value);
        };
        if from.shape() == target.shape() {
            return Ok(value);
        }
        if let StaticVal::Or(parts) = from {
            let parts = parts.clone();
            let target = target.clone();
            let (matched, _) = self.case_or(
                value,
                &parts,
                span,
                Some(&target),
                &mut |_this, part, sv| Ok((part, sv.clone())),
            )?;
            return Ok(matched);
        }
        let index = alternatives
            .iter()
            .position(|a| a.shape() == from.shape())
            .ok_or_else(|| internal(span, "a branch's value is not among the alternatives"))?;
        Ok(expr(
            ExprKind::Constructor {
                name: or_constructor(index),
                payload: vec![value],
            },
            target.representation_type(),
            span,
        ))
    }

    /// `match value with #or<i> c -> body(c, alternative i)`, the branches'
    /// results joined (or made `target`).
    #[allow(clippy::type_complexity)]
    fn case_or(
        &mut self,
        value: Expr,
        alternatives: &[StaticVal<'p>],
        span: Span,
        target: Option<&StaticVal<'p>>,
        body: &mut dyn FnMut(&mut Self, Expr, &StaticVal<'p>) -> DefuncResult<Translated<'p>>,
    ) -> DefuncResult<Translated<'p>> {
        let sum_type = value.ty.clone();
        let mut bodies = Vec::new();
        let mut patterns = Vec::new();
        for (index, alternative) in alternatives.iter().enumerate() {
            let name = self.names.var("alternative");
            let ty = alternative.representation_type();
            patterns.push(Pat {
                kind: PatKind::Constructor {
                    name: or_constructor(index),
                    payload: vec![var_pat(&name, ty.clone(), span)],
                },
                ty: sum_type.clone(),
                span,
            });
            bodies.push(body(self, var_expr(&name, ty, span), alternative)?);
        }
        let svs: Vec<StaticVal<'p>> = bodies.iter().map(|(_, sv)| sv.clone()).collect();
        let joined = match target {
            Some(target) => target.clone(),
            None => Self::join(&svs, bodies[0].0.ty.clone()),
        };
        let mut cases = Vec::new();
        for (pat, (body, sv)) in patterns.into_iter().zip(bodies) {
            let body = self.inject(body, &sv, &joined, span)?;
            cases.push(Case { pat, body });
        }
        let ty = joined.representation_type();
        Ok((
            expr(
                ExprKind::Match {
                    scrutinee: Box::new(value),
                    cases,
                },
                ty,
                span,
            ),
            joined,
        ))
    }

    /// Field `field` of a record value.
    fn project(
        &mut self,
        record: Expr,
        record_sv: &StaticVal<'p>,
        field: &FieldName,
        dynamic: Type,
        span: Span,
    ) -> DefuncResult<Translated<'p>> {
        if let StaticVal::Or(alternatives) = record_sv {
            let alternatives = alternatives.clone();
            return self.case_or(record, &alternatives, span, None, &mut |this, part, sv| {
                this.project(part, sv, field, dynamic.clone(), span)
            });
        }
        let sv = match record_sv.field(field) {
            Some(StaticVal::Dyn(_)) => StaticVal::Dyn(dynamic),
            Some(sv) => sv,
            None => return Err(internal(span, "a projection of a missing field")),
        };
        let ty = sv.representation_type();
        let kind = ExprKind::Project {
            record: Box::new(record),
            field: field.clone(),
        };
        Ok((expr(kind, ty, span), sv))
    }

    /// `E ⊢ e ⇝ ⟨e', sv⟩`.
    fn expression(&mut self, env: &Env<'p>, e: &'p Expr) -> DefuncResult<Translated<'p>> {
        spec::recursion::with_stack(|| self.expression_inner(env, e))
    }

    fn expression_inner(&mut self, env: &Env<'p>, e: &'p Expr) -> DefuncResult<Translated<'p>> {
        let span = e.span;
        let dynamic_type = |this: &Self| this.translate_type(env, &e.ty);
        let done = |kind: ExprKind, ty: Type| -> DefuncResult<Translated<'p>> {
            Ok((expr(kind, ty.clone(), span), StaticVal::Dyn(ty)))
        };
        match &e.kind {
            ExprKind::Literal(value) => done(ExprKind::Literal(*value), e.ty.clone()),
            ExprKind::Var { name, instance } => {
                // Size arguments are bound from the arguments' shapes at run
                // time (mono shares instances that differ only in sizes).
                if !instance.types.is_empty() {
                    return Err(internal(
                        span,
                        "an instantiated variable after monomorphisation",
                    ));
                }
                if let Some(binding) = env.get(&name.id) {
                    let ty = binding.sv.representation_type();
                    return Ok((var_expr(&binding.name, ty, span), binding.sv.clone()));
                }
                match self.globals.get(&name.id) {
                    Some(Global::Constant(binding)) => {
                        let ty = binding.sv.representation_type();
                        Ok((var_expr(&binding.name, ty, span), binding.sv.clone()))
                    }
                    Some(Global::Function(source)) => {
                        let source = *source;
                        Ok(self.closure_value(&Env::new(), source, span))
                    }
                    None => Err(internal(span, &format!("unbound variable `{}`", name.base))),
                }
            }
            ExprKind::Intrinsic {
                intrinsic,
                type_args,
                args,
            } => {
                let mut lets = Vec::new();
                let mut out = Vec::new();
                for arg in args {
                    if arg.ty.contains_function() {
                        let (rep, sv) = self.expression(env, arg)?;
                        let rep = if is_atomic(&rep) {
                            rep
                        } else {
                            let name = self.names.var("closure");
                            let var = var_expr(&name, rep.ty.clone(), arg.span);
                            lets.push((var_pat(&name, rep.ty.clone(), arg.span), rep));
                            var
                        };
                        out.push(self.soac_lambda(env, rep, sv, &arg.ty, arg.span)?);
                    } else {
                        out.push(self.dynamic(env, arg)?);
                    }
                }
                let ty = dynamic_type(self);
                let call = expr(
                    ExprKind::Intrinsic {
                        intrinsic: intrinsic.clone(),
                        type_args: type_args
                            .iter()
                            .map(|t| self.translate_type(env, t))
                            .collect(),
                        args: out,
                    },
                    ty.clone(),
                    span,
                );
                let result = lets
                    .into_iter()
                    .rev()
                    .fold(call, |body, (pat, value)| let_in(pat, value, body));
                Ok((result, StaticVal::Dyn(ty)))
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                let kind = ExprKind::BinOp {
                    op: *op,
                    lhs: self.boxed(env, lhs)?,
                    rhs: self.boxed(env, rhs)?,
                };
                done(kind, e.ty.clone())
            }
            ExprKind::UnOp { op, operand } => {
                let kind = ExprKind::UnOp {
                    op: *op,
                    operand: self.boxed(env, operand)?,
                };
                done(kind, e.ty.clone())
            }
            ExprKind::Equal { negated, lhs, rhs } => {
                let kind = ExprKind::Equal {
                    negated: *negated,
                    lhs: self.boxed(env, lhs)?,
                    rhs: self.boxed(env, rhs)?,
                };
                done(kind, e.ty.clone())
            }
            ExprKind::Record(fields) => {
                let mut out = Vec::new();
                let mut svs = BTreeMap::new();
                for (field, value) in fields {
                    let (value, sv) = self.expression(env, value)?;
                    out.push((field.clone(), value));
                    svs.insert(field.clone(), sv);
                }
                let sv = StaticVal::record(svs);
                let ty = sv.representation_type();
                Ok((expr(ExprKind::Record(out), ty, span), sv))
            }
            ExprKind::Project { record, field } => {
                let (record, record_sv) = self.expression(env, record)?;
                let dynamic = dynamic_type(self);
                self.project(record, &record_sv, field, dynamic, span)
            }
            ExprKind::RecordUpdate {
                target,
                path,
                value,
            } => {
                let (target, target_sv) = self.expression(env, target)?;
                let (value, value_sv) = self.expression(env, value)?;
                let sv = if target_sv.is_dynamic() && value_sv.is_dynamic() {
                    StaticVal::Dyn(dynamic_type(self))
                } else {
                    replace_field(&target_sv, path, value_sv)
                        .ok_or_else(|| internal(span, "a record update of a missing field"))?
                };
                let ty = sv.representation_type();
                let kind = ExprKind::RecordUpdate {
                    target: Box::new(target),
                    path: path.clone(),
                    value: Box::new(value),
                };
                Ok((expr(kind, ty, span), sv))
            }
            ExprKind::Constructor { name, payload } => {
                let payload = payload
                    .iter()
                    .map(|p| self.dynamic(env, p))
                    .collect::<DefuncResult<Vec<_>>>()?;
                let kind = ExprKind::Constructor {
                    name: name.clone(),
                    payload,
                };
                done(kind, dynamic_type(self))
            }
            ExprKind::ArrayLit(elements) => {
                let elements = elements
                    .iter()
                    .map(|x| self.dynamic(env, x))
                    .collect::<DefuncResult<Vec<_>>>()?;
                done(ExprKind::ArrayLit(elements), dynamic_type(self))
            }
            ExprKind::Range {
                start,
                step,
                end,
                end_kind,
            } => {
                let kind = ExprKind::Range {
                    start: self.boxed(env, start)?,
                    step: step.as_ref().map(|s| self.boxed(env, s)).transpose()?,
                    end: self.boxed(env, end)?,
                    end_kind: *end_kind,
                };
                done(kind, dynamic_type(self))
            }
            ExprKind::Index { array, indices } => {
                let kind = ExprKind::Index {
                    array: self.boxed(env, array)?,
                    indices: self.indices(env, indices)?,
                };
                done(kind, dynamic_type(self))
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let kind = ExprKind::Update {
                    target: self.boxed(env, target)?,
                    indices: self.indices(env, indices)?,
                    value: self.boxed(env, value)?,
                };
                done(kind, dynamic_type(self))
            }
            ExprKind::Coerce(inner) => {
                let kind = ExprKind::Coerce(self.boxed(env, inner)?);
                done(kind, dynamic_type(self))
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                let (value, value_sv) = self.expression(env, value)?;
                let mut inner = env.clone();
                let sizes = self.bind_sizes(&mut inner, sizes);
                let pat = self.pattern(&mut inner, pat, &value_sv)?;
                let (body, sv) = self.expression(&inner, body)?;
                // The sizes the `let` binds are existential outside it.
                let mut bound: std::collections::HashSet<u32> =
                    sizes.iter().map(|s| s.id).collect();
                bound.extend(pat.bound_vars().into_iter().map(|(name, _)| name.id));
                let ty = forget_sizes(&body.ty, &bound);
                let sv = forget_static_sizes(&sv, &bound);
                let kind = ExprKind::Let {
                    sizes,
                    pat,
                    value: Box::new(value),
                    body: Box::new(body),
                };
                Ok((expr(kind, ty, span), sv))
            }
            ExprKind::LetFun { function, body } => {
                if !function.type_params.is_empty() {
                    return Err(internal(
                        function.span,
                        "a polymorphic local function after monomorphisation",
                    ));
                }
                let (value, sv) = self.closure_value(env, function_source(function), function.span);
                let name = self.fresh(&function.name);
                let mut inner = env.clone();
                inner.insert(
                    function.name.id,
                    Binding {
                        name: name.clone(),
                        sv,
                    },
                );
                let (body, body_sv) = self.expression(&inner, body)?;
                let pat = var_pat(&name, value.ty.clone(), function.span);
                Ok((let_in(pat, value, body), body_sv))
            }
            ExprKind::Lambda { params, body } => {
                let source = LambdaSource {
                    id: &**body as *const Expr as usize,
                    name: "lambda",
                    size_params: &[],
                    params,
                    result: None,
                    body,
                    span,
                };
                Ok(self.closure_value(env, source, span))
            }
            ExprKind::Apply { function, args } => {
                let (function, function_sv) = self.expression(env, function)?;
                let args = args
                    .iter()
                    .map(|arg| self.expression(env, arg))
                    .collect::<DefuncResult<Vec<_>>>()?;
                self.apply(function, function_sv, args, span, false)
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                let condition = self.boxed(env, condition)?;
                let (then_branch, then_sv) = self.expression(env, then_branch)?;
                let (else_branch, else_sv) = self.expression(env, else_branch)?;
                let sv = Self::join(&[then_sv.clone(), else_sv.clone()], dynamic_type(self));
                let then_branch = self.inject(then_branch, &then_sv, &sv, span)?;
                let else_branch = self.inject(else_branch, &else_sv, &sv, span)?;
                let ty = sv.representation_type();
                let kind = ExprKind::If {
                    condition,
                    then_branch: Box::new(then_branch),
                    else_branch: Box::new(else_branch),
                };
                Ok((expr(kind, ty, span), sv))
            }
            ExprKind::Match { scrutinee, cases } => {
                let (scrutinee, scrutinee_sv) = self.expression(env, scrutinee)?;
                let mut out = Vec::new();
                let mut svs = Vec::new();
                for case in cases {
                    let mut inner = env.clone();
                    let pat = self.pattern(&mut inner, &case.pat, &scrutinee_sv)?;
                    let (body, sv) = self.expression(&inner, &case.body)?;
                    out.push(Case { pat, body });
                    svs.push(sv);
                }
                let sv = Self::join(&svs, dynamic_type(self));
                for (case, case_sv) in out.iter_mut().zip(&svs) {
                    let body = std::mem::replace(
                        &mut case.body,
                        expr(ExprKind::Record(Vec::new()), Type::unit(), span),
                    );
                    case.body = self.inject(body, case_sv, &sv, span)?;
                }
                let ty = sv.representation_type();
                let kind = ExprKind::Match {
                    scrutinee: Box::new(scrutinee),
                    cases: out,
                };
                Ok((expr(kind, ty, span), sv))
            }
            ExprKind::Loop {
                pat,
                declared,
                init,
                form,
                body,
            } => {
                let init = self.boxed(env, init)?;
                let mut inner = env.clone();
                let form = match form {
                    LoopForm::For { var, bound } => {
                        let bound = self.boxed(env, bound)?;
                        let pat = self.dynamic_pattern(&mut inner, pat)?;
                        let new = self.fresh(var);
                        inner.insert(
                            var.id,
                            Binding {
                                name: new.clone(),
                                sv: StaticVal::Dyn(bound.ty.clone()),
                            },
                        );
                        (pat, LoopForm::For { var: new, bound })
                    }
                    LoopForm::ForIn {
                        pat: element,
                        array,
                    } => {
                        let array = self.boxed(env, array)?;
                        let pat = self.dynamic_pattern(&mut inner, pat)?;
                        let element = self.dynamic_pattern(&mut inner, element)?;
                        (
                            pat,
                            LoopForm::ForIn {
                                pat: element,
                                array,
                            },
                        )
                    }
                    LoopForm::While { condition } => {
                        let pat = self.dynamic_pattern(&mut inner, pat)?;
                        let condition = self.boxed(&inner, condition)?;
                        (pat, LoopForm::While { condition })
                    }
                };
                let (pat, form) = form;
                let body = self.boxed(&inner, body)?;
                let ty = dynamic_type(self);
                let kind = ExprKind::Loop {
                    pat,
                    declared: declared.clone(),
                    init,
                    form,
                    body,
                };
                Ok((expr(kind, ty.clone(), span), StaticVal::Dyn(ty)))
            }
        }
    }
}

/// `sv` with the field at `path` replaced by `value`.
fn replace_field<'p>(
    sv: &StaticVal<'p>,
    path: &[FieldName],
    value: StaticVal<'p>,
) -> Option<StaticVal<'p>> {
    let Some((first, rest)) = path.split_first() else {
        return Some(value);
    };
    let mut fields: BTreeMap<FieldName, StaticVal<'p>> = match sv {
        StaticVal::Rcd(fields) => fields.clone(),
        StaticVal::Dyn(Type::Record(types)) => types
            .iter()
            .map(|(field, ty)| (field.clone(), StaticVal::Dyn(ty.clone())))
            .collect(),
        _ => return None,
    };
    let old = fields.get(first)?;
    let new = replace_field(old, rest, value)?;
    fields.insert(first.clone(), new);
    Some(StaticVal::record(fields))
}

/// `sv` with the sizes named by `names` forgotten in every type it holds,
/// a closure's captured values included: the static value of a `let` that
/// binds sizes outlives them (`let [m] (zs: [m]t) = … in \p -> … zs …`).
fn forget_static_sizes<'p>(
    sv: &StaticVal<'p>,
    names: &std::collections::HashSet<u32>,
) -> StaticVal<'p> {
    match sv {
        StaticVal::Dyn(t) => StaticVal::Dyn(forget_sizes(t, names)),
        StaticVal::Lam(closure) => StaticVal::Lam(Rc::new(Closure {
            source: closure.source,
            captured: closure
                .captured
                .iter()
                .map(|(name, captured)| (name.clone(), forget_static_sizes(captured, names)))
                .collect(),
            applied: closure
                .applied
                .iter()
                .map(|applied| forget_static_sizes(applied, names))
                .collect(),
        })),
        StaticVal::Rcd(fields) => StaticVal::Rcd(
            fields
                .iter()
                .map(|(field, field_sv)| (field.clone(), forget_static_sizes(field_sv, names)))
                .collect(),
        ),
        StaticVal::Or(alternatives) => StaticVal::Or(
            alternatives
                .iter()
                .map(|alternative| forget_static_sizes(alternative, names))
                .collect(),
        ),
    }
}

/// `ty` with the sizes named by `names` forgotten.
fn forget_sizes(ty: &Type, names: &std::collections::HashSet<u32>) -> Type {
    match ty {
        Type::Prim(_) | Type::Param(_) => ty.clone(),
        Type::Array { size, element } => {
            let size = match size {
                Size::Var(v) if names.contains(&v.id) => Size::Unknown,
                other => other.clone(),
            };
            Type::array(size, forget_sizes(element, names))
        }
        Type::Record(fields) => Type::Record(Rc::new(
            fields
                .iter()
                .map(|(field, t)| (field.clone(), forget_sizes(t, names)))
                .collect(),
        )),
        Type::Sum(constructors) => Type::Sum(Rc::new(
            constructors
                .iter()
                .map(|(name, payload)| {
                    (
                        name.clone(),
                        payload.iter().map(|t| forget_sizes(t, names)).collect(),
                    )
                })
                .collect(),
        )),
        Type::Arrow { from, to, .. } => {
            Type::arrow(forget_sizes(from, names), forget_sizes(to, names))
        }
    }
}
