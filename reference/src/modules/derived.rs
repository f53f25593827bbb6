//! Derived forms (ICFP'18 eqs. (1)–(8)): the surface module language of
//! `spec::syntax::ast` translated into the kernel of Fig. 1 ([`super::kernel`]).
//!
//! * eq. (1) `module F (X: mty) = mexp` ⇒ `module F = λX : mty → mexp`;
//! * eq. (2)/(3) Futhark's `local dec` followed by the rest `ds` of its
//!   sequence ⇒ `open (let dec in { ds })` ⇒ `open { dec module X = { ds } }.X`;
//! * eq. (4) `mexp₁ (mexp₂)` with `mexp₁` not a long identifier ⇒
//!   `{ module F = mexp₁ module X = F(mexp₂) }.X`;
//! * eq. (5) `mexp : mty` is kept as rule 37 (opaque), see SPEC_NOTES ICFP18-3;
//! * eqs. (6)/(7) `module X : mty = mexp`, `module F (X: mty₀) : mty = mexp`;
//! * eq. (8) spec `type tid = ty` ⇒ `include ({ type tid } with tid = ty)`;
//! * `\(X: mty) : mty' -> mexp` ⇒ `λX : mty → (mexp : mty')`; an anonymous
//!   functor type `mty₁ -> mty₂` names its parameter with a fresh identifier.
//!
//! * §8.2 polymorphic types `type name 'a … = ty` and §8.1 polymorphic
//!   functions `def name 'a … (f: ty) … = e` as functors, instantiated by
//!   hoisted applications (see the end of this file).
//!
//! Internal identifiers start with `%`, which no surface identifier can.

use super::error::{outside, Failure};
use super::kernel::{KDec, KModExp, KModType, KSpec};
use spec::recursion::with_stack;
use spec::source::Span;
use spec::syntax::ast::{
    Dec, DimIndex, Expr, LoopForm, MatchCase, ModExp, ModTypeExp, Pat, Program, QualName, Spec,
    TypeArg, TypeExp, TypeRefinement, ValueBind,
};
use std::cell::Cell;
use std::rc::Rc;

const MODULES: &str = "the module language transcribed here";

thread_local! {
    static NEXT_INTERNAL: Cell<u32> = const { Cell::new(0) };
}

fn internal_name(hint: &str) -> String {
    NEXT_INTERNAL.with(|next| {
        let n = next.get();
        next.set(n + 1);
        format!("%{hint}{n}")
    })
}

/// A whole program: its declarations as one kernel `mdec` sequence.
pub fn program(program: &Program) -> Result<Vec<KDec>, Failure> {
    program_for(program, false)
}

/// A whole program for a core with (`native_polymorphism`) or without its
/// own polymorphic functions: with them, §8.1's derived form is not used and
/// a polymorphic `def` is a core declaration (SPEC_NOTES ICFP18-17).
pub fn program_for(program: &Program, native_polymorphism: bool) -> Result<Vec<KDec>, Failure> {
    NATIVE_POLYMORPHISM.with(|native| native.set(native_polymorphism));
    NEXT_INTERNAL.with(|next| next.set(0));
    reset_polymorphism();
    decs(&program.decs)
}

/// A declaration sequence; `local` takes the rest of the sequence with it.
pub fn decs(decs_in: &[Dec]) -> Result<Vec<KDec>, Failure> {
    let mut out = Vec::new();
    for (index, dec_in) in decs_in.iter().enumerate() {
        if let Some((local, span)) = as_local(dec_in) {
            // eq. (2)/(3): local dec in { rest } ⇒ open { dec module X = { rest } }.X
            let x = internal_name("X");
            let rest = decs(&decs_in[index + 1..])?;
            let mut inner = dec(local)?;
            inner.push(KDec::Module {
                name: x.clone(),
                module: KModExp::Struct(rest, span),
                span,
            });
            out.push(KDec::Open {
                module: KModExp::Proj(Box::new(KModExp::Struct(inner, span)), x, span),
                span,
            });
            return Ok(out);
        }
        out.extend(dec(dec_in)?);
    }
    Ok(out)
}

fn as_local(dec: &Dec) -> Option<(&Dec, Span)> {
    match dec {
        Dec::Local { dec, span } => Some((dec, *span)),
        Dec::Attr { dec, .. } => as_local(dec),
        _ => None,
    }
}

fn dec(dec_in: &Dec) -> Result<Vec<KDec>, Failure> {
    with_stack(|| with_hoisting(dec_in.span(), || dec_hoisted(dec_in)))
}

fn dec_hoisted(dec_in: &Dec) -> Result<Vec<KDec>, Failure> {
    match dec_in {
        Dec::Value(bind)
            if !bind.type_params.is_empty() && !NATIVE_POLYMORPHISM.with(|n| n.get()) =>
        {
            polymorphic_function(bind)
        }
        Dec::Value(bind) => Ok(vec![KDec::Core(Box::new(with_local_type_params(
            &bind.type_params,
            || rewrite_value_bind(bind),
        )?))]),
        Dec::Type(bind) => {
            // A later declaration of the name hides an earlier sized one.
            SIZED_TYPES.with(|types| types.borrow_mut().remove(&bind.name));
            // Extension (SPEC_NOTES ICFP18-27): on the TFP'18 core, whose
            // array types are unsized, size parameters are expanded or
            // erased; the paper's core has none.
            if bind
                .params
                .iter()
                .any(|p| matches!(p, spec::syntax::ast::TypeParam::Type { .. }) || !erases_sizes())
            {
                // §8.2
                return polymorphic_type(bind);
            }
            let definition = rewrite_type(&bind.definition)?;
            let size_params: Vec<String> = bind
                .params
                .iter()
                .filter_map(|p| match p {
                    spec::syntax::ast::TypeParam::Size { name, .. } => Some(name.clone()),
                    spec::syntax::ast::TypeParam::Type { .. } => None,
                })
                .collect();
            if !size_params.is_empty() {
                SIZED_TYPES.with(|types| {
                    types
                        .borrow_mut()
                        .insert(bind.name.clone(), (size_params, definition.clone()))
                });
            }
            Ok(vec![KDec::Type {
                name: bind.name.clone(),
                ty: definition,
                span: bind.span,
            }])
        }
        Dec::Module(bind) => {
            let mut body = mod_exp(&bind.body)?;
            if let Some(signature) = &bind.signature {
                // eqs. (6), (7): the signature constrains the body.
                body = ascribe_hoisting(body, signature, bind.span)?;
            }
            for param in bind.params.iter().rev() {
                // eq. (1)
                body = KModExp::Lambda {
                    param: param.name.clone(),
                    mod_type: mod_type(&param.mod_type)?,
                    body: Rc::new(body),
                    span: bind.span,
                };
            }
            Ok(vec![KDec::Module {
                name: bind.name.clone(),
                module: body,
                span: bind.span,
            }])
        }
        Dec::ModuleType(bind) => Ok(vec![KDec::ModType {
            name: bind.name.clone(),
            mod_type: mod_type(&bind.definition)?,
            span: bind.span,
        }]),
        Dec::Open { module, span } => Ok(vec![KDec::Open {
            module: mod_exp(module)?,
            span: *span,
        }]),
        Dec::Import { span, .. } => Err(outside("`import`", MODULES, *span)),
        // `local local d`: the inner `local` scopes over nothing more.
        Dec::Local { dec, .. } => self::decs(std::slice::from_ref(dec.as_ref())),
        Dec::Attr { dec, .. } => dec_hoisted(dec),
    }
}

/// `body : signature` (eqs. (6), (7)), inside the functor's λs when there
/// are any: the §8.2 applications the signature's types need are placed
/// before it, `{ module %p = P(…) module %X = (body : signature) }.%X`, so
/// that their arguments may mention the functor's parameters (`val f :
/// pair X.t` in `module F (X: S) : { … }`: the paper's restriction is that
/// they mention only names bound outside, and the parameters are bound
/// here). Without such uses, plain rule 37/eq. (6).
fn ascribe_hoisting(body: KModExp, signature: &ModTypeExp, span: Span) -> Result<KModExp, Failure> {
    HOISTED.with(|frames| frames.borrow_mut().push(Vec::new()));
    let translated = mod_type(signature);
    let hoisted = HOISTED.with(|frames| frames.borrow_mut().pop().unwrap_or_default());
    let ascribed = KModExp::Ascribe {
        module: Box::new(body),
        mod_type: translated?,
        span,
    };
    if hoisted.is_empty() {
        return Ok(ascribed);
    }
    let x = internal_name("X");
    let mut inner = hoisted;
    inner.push(KDec::Module {
        name: x.clone(),
        module: ascribed,
        span,
    });
    Ok(KModExp::Proj(
        Box::new(KModExp::Struct(inner, span)),
        x,
        span,
    ))
}

/// A module expression.
pub fn mod_exp(exp: &ModExp) -> Result<KModExp, Failure> {
    with_stack(|| match exp {
        ModExp::Var(name) => Ok(long_mid(name)),
        ModExp::Struct { decs: inner, span } => Ok(KModExp::Struct(decs(inner)?, *span)),
        ModExp::Ascribe {
            module,
            mod_type: mty,
            span,
        } => Ok(KModExp::Ascribe {
            module: Box::new(mod_exp(module)?),
            mod_type: mod_type(mty)?,
            span: *span,
        }),
        ModExp::Lambda {
            param,
            result,
            body,
            span,
        } => {
            let mut body = mod_exp(body)?;
            if let Some(result) = result {
                body = ascribe_hoisting(body, result, *span)?;
            }
            Ok(KModExp::Lambda {
                param: param.name.clone(),
                mod_type: mod_type(&param.mod_type)?,
                body: Rc::new(body),
                span: *span,
            })
        }
        ModExp::Apply {
            functor,
            argument,
            span,
        } => {
            let argument = mod_exp(argument)?;
            match functor.as_ref() {
                ModExp::Var(name) => Ok(KModExp::Apply {
                    functor: name.clone(),
                    argument: Box::new(argument),
                    span: *span,
                }),
                other => {
                    // eq. (4): { module F = mexp₁ module X = F(mexp₂) }.X
                    let f = internal_name("F");
                    let x = internal_name("X");
                    let functor_exp = mod_exp(other)?;
                    let decs = vec![
                        KDec::Module {
                            name: f.clone(),
                            module: functor_exp,
                            span: *span,
                        },
                        KDec::Module {
                            name: x.clone(),
                            module: KModExp::Apply {
                                functor: QualName::unqualified(f, *span),
                                argument: Box::new(argument),
                                span: *span,
                            },
                            span: *span,
                        },
                    ];
                    Ok(KModExp::Proj(
                        Box::new(KModExp::Struct(decs, *span)),
                        x,
                        *span,
                    ))
                }
            }
        }
        ModExp::Import { span, .. } => Err(outside("`import`", MODULES, *span)),
    })
}

/// `a.b.c` as a module expression: rule 27 on `a`, rule 26 for each projection.
fn long_mid(name: &QualName) -> KModExp {
    let mut parts = name.qualifiers.iter().chain(std::iter::once(&name.name));
    let first = parts.next().cloned().unwrap_or_default();
    let mut exp = KModExp::Id(first, name.span);
    for part in parts {
        exp = KModExp::Proj(Box::new(exp), part.clone(), name.span);
    }
    exp
}

/// A module type expression.
pub fn mod_type(mty: &ModTypeExp) -> Result<KModType, Failure> {
    with_stack(|| match mty {
        ModTypeExp::Var(name) => Ok(KModType::Id(name.clone())),
        ModTypeExp::Signature { specs: inner, span } => Ok(KModType::Sig(specs(inner)?, *span)),
        ModTypeExp::With {
            mod_type: inner,
            refinement,
            span,
        } => {
            let TypeRefinement {
                name,
                params,
                definition,
            } = refinement;
            if !params.is_empty() {
                return Err(outside(
                    "`with` refinements with type parameters",
                    MODULES,
                    *span,
                ));
            }
            Ok(KModType::With {
                mod_type: Box::new(mod_type(inner)?),
                longtid: name.clone(),
                ty: rewrite_type(definition)?,
                span: *span,
            })
        }
        ModTypeExp::Arrow {
            param,
            from,
            to,
            span,
        } => Ok(KModType::Arrow {
            param: param.clone().unwrap_or_else(|| internal_name("P")),
            from: Box::new(mod_type(from)?),
            to: Box::new(mod_type(to)?),
            span: *span,
        }),
    })
}

fn specs(specs_in: &[Spec]) -> Result<Vec<KSpec>, Failure> {
    specs_in.iter().map(spec).collect()
}

fn spec(spec_in: &Spec) -> Result<KSpec, Failure> {
    match spec_in {
        Spec::Val {
            name,
            type_params,
            ty,
            span,
        } => {
            // A core with its own polymorphism erases sizes from types
            // (TFP'18 core arrays are `[]τ`): size parameters are dropped.
            let only_sizes = type_params
                .iter()
                .all(|p| matches!(p, spec::syntax::ast::TypeParam::Size { .. }));
            // A core with polymorphism of its own keeps type parameters
            // (the TFP'18 core: SPEC_NOTES ICFP18-16/17).
            let allowed = only_sizes || NATIVE_POLYMORPHISM.with(|n| n.get());
            if !type_params.is_empty() && !allowed {
                return Err(outside(
                    "value specifications with type parameters",
                    MODULES,
                    *span,
                ));
            }
            Ok(KSpec::Val {
                name: name.clone(),
                type_params: type_params
                    .iter()
                    .filter(|p| matches!(p, spec::syntax::ast::TypeParam::Type { .. }))
                    .cloned()
                    .collect(),
                ty: with_local_type_params(type_params, || rewrite_type(ty))?,
                span: *span,
            })
        }
        Spec::Type {
            name,
            params,
            definition,
            span,
            ..
        } => {
            // Size parameters are erased (SPEC_NOTES ICFP18-27).
            if params
                .iter()
                .any(|p| matches!(p, spec::syntax::ast::TypeParam::Type { .. }) || !erases_sizes())
            {
                return Err(outside(
                    "type specifications with parameters",
                    MODULES,
                    *span,
                ));
            }
            match definition {
                None => Ok(KSpec::Type {
                    name: name.clone(),
                    span: *span,
                }),
                // eq. (8): type tid = ty ⇒ include ({ type tid }) with tid = ty
                Some(ty) => Ok(KSpec::Include {
                    mod_type: KModType::With {
                        mod_type: Box::new(KModType::Sig(
                            vec![KSpec::Type {
                                name: name.clone(),
                                span: *span,
                            }],
                            *span,
                        )),
                        longtid: QualName::unqualified(name.clone(), *span),
                        ty: rewrite_type(ty)?,
                        span: *span,
                    },
                    span: *span,
                }),
            }
        }
        Spec::Module {
            name,
            mod_type: mty,
            span,
        } => Ok(KSpec::Module {
            name: name.clone(),
            mod_type: mod_type(mty)?,
            span: *span,
        }),
        Spec::Include {
            mod_type: mty,
            span,
        } => Ok(KSpec::Include {
            mod_type: mod_type(mty)?,
            span: *span,
        }),
    }
}

// ---------------------------------------------------------------------------
// §8.2: polymorphic types as parameterised modules.
//
// `type name 'a 'b = ty` ⇒ `module %name = λ%X : { type a type b } → { open %X
// type name = ty }`; a use `name ty₁ ty₂` inside a declaration d hoists
// `module %name_n = %name({ type a = ty₁ type b = ty₂ })` before d (as
// `local … in d`, eqs. (2), (3)) and becomes `%name_n.name`. As the paper
// restricts it, the arguments may only mention names bound outside d.

thread_local! {
    static POLY_TYPES: std::cell::RefCell<std::collections::HashMap<String, PolyType>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    /// The type parameters bound around the type expression being rewritten
    /// (of the `def`, `val` specification or local function it is in).
    static LOCAL_TYPE_PARAMS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    static HOISTED: std::cell::RefCell<Vec<Vec<KDec>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The type abbreviations with size parameters only (`type vec [n] =
    /// [n]f32`): their size parameters and their (rewritten) definition,
    /// expanded where they are used (SPEC_NOTES ICFP18-27).
    static SIZED_TYPES: std::cell::RefCell<std::collections::HashMap<String, (Vec<String>, TypeExp)>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// A polymorphic type: its functor's name, its parameters, its definition
/// (rewritten).
type PolyType = (String, Vec<String>, TypeExp);

fn reset_polymorphism() {
    POLY_TYPES.with(|types| types.borrow_mut().clear());
    SIZED_TYPES.with(|types| types.borrow_mut().clear());
    LOCAL_TYPE_PARAMS.with(|params| params.borrow_mut().clear());
    POLY_FUNCTIONS.with(|functions| functions.borrow_mut().clear());
    HOISTED.with(|frames| frames.borrow_mut().clear());
}

/// The polymorphic type declaration `type name 'a … = ty` as a functor.
fn polymorphic_type(bind: &spec::syntax::ast::TypeBind) -> Result<Vec<KDec>, Failure> {
    let mut params = Vec::new();
    for param in &bind.params {
        match param {
            spec::syntax::ast::TypeParam::Type { name, .. } => params.push(name.clone()),
            // Erased (SPEC_NOTES ICFP18-27).
            spec::syntax::ast::TypeParam::Size { .. } if erases_sizes() => {}
            spec::syntax::ast::TypeParam::Size { span, .. } => {
                return Err(outside(
                    "size parameters of polymorphic types (§8.2)",
                    MODULES,
                    *span,
                ))
            }
        }
    }
    let functor = internal_name(&bind.name);
    let x = internal_name("X");
    let span = bind.span;
    let param_sig = KModType::Sig(
        params
            .iter()
            .map(|name| KSpec::Type {
                name: name.clone(),
                span,
            })
            .collect(),
        span,
    );
    let definition = rewrite_type(&bind.definition)?;
    let body = KModExp::Struct(
        vec![
            KDec::Open {
                module: KModExp::Id(x.clone(), span),
                span,
            },
            KDec::Type {
                name: bind.name.clone(),
                ty: definition.clone(),
                span,
            },
        ],
        span,
    );
    POLY_TYPES.with(|types| {
        types
            .borrow_mut()
            .insert(bind.name.clone(), (functor.clone(), params, definition))
    });
    Ok(vec![KDec::Module {
        name: functor,
        module: KModExp::Lambda {
            param: x,
            mod_type: param_sig,
            body: Rc::new(body),
            span,
        },
        span,
    }])
}

/// A type expression with every instantiation of a polymorphic type replaced
/// by a projection from a hoisted application.
fn rewrite_type(ty: &TypeExp) -> Result<TypeExp, Failure> {
    with_stack(|| match ty {
        TypeExp::Apply {
            constructor,
            args,
            span,
        } if erases_sizes() && args.iter().any(|arg| matches!(arg, TypeArg::Size { .. })) => {
            if let Some(expanded) = expand_sized_type(constructor, args) {
                return Ok(expanded);
            }
            // Size arguments are erased with the size parameters they
            // instantiate (SPEC_NOTES ICFP18-27).
            let args: Vec<TypeArg> = args
                .iter()
                .filter(|arg| matches!(arg, TypeArg::Type(_)))
                .cloned()
                .collect();
            if args.is_empty() {
                return Ok(TypeExp::Var(constructor.clone()));
            }
            rewrite_type(&TypeExp::Apply {
                constructor: constructor.clone(),
                args,
                span: *span,
            })
        }
        TypeExp::Apply {
            constructor,
            args,
            span,
        } if constructor.qualifiers.is_empty() => {
            let Some((functor, params, definition)) =
                POLY_TYPES.with(|types| types.borrow().get(&constructor.name).cloned())
            else {
                return ty.try_map_children(rewrite_type);
            };
            if params.len() != args.len() {
                return Err(Failure::new(
                    "§8.2",
                    format!("{} takes {} type arguments", constructor.name, params.len()),
                    format!("{} given", args.len()),
                    *span,
                ));
            }
            if let Some(expanded) = expand_at_local_type_params(&params, &definition, args)? {
                return Ok(expanded);
            }
            let mut decs = Vec::new();
            for (param, arg) in params.iter().zip(args) {
                match arg {
                    spec::syntax::ast::TypeArg::Type(arg) => decs.push(KDec::Type {
                        name: param.clone(),
                        ty: rewrite_type(arg)?,
                        span: *span,
                    }),
                    // Only on the paper's core: the TFP'18 core's size
                    // arguments were erased above (SPEC_NOTES ICFP18-27).
                    spec::syntax::ast::TypeArg::Size { span, .. } => {
                        return Err(outside("size arguments (§8.2)", MODULES, *span))
                    }
                }
            }
            let instance = internal_name(&constructor.name);
            let application = KDec::Module {
                name: instance.clone(),
                module: KModExp::Apply {
                    functor: QualName::unqualified(functor, *span),
                    argument: Box::new(KModExp::Struct(decs, *span)),
                    span: *span,
                },
                span: *span,
            };
            HOISTED.with(|frames| {
                if let Some(frame) = frames.borrow_mut().last_mut() {
                    frame.push(application)
                }
            });
            Ok(TypeExp::Var(QualName {
                qualifiers: vec![instance],
                name: constructor.name.clone(),
                span: *span,
            }))
        }
        _ => ty.try_map_children(rewrite_type),
    })
}

/// Whether the core erases sizes from types (the TFP'18 core, which has
/// polymorphism of its own; the paper's core has no sizes at all).
fn erases_sizes() -> bool {
    NATIVE_POLYMORPHISM.with(|n| n.get())
}

/// `name [s₁]…[sₙ]` where `name` is an abbreviation with size parameters
/// only: its definition with the sizes substituted for the parameters (so
/// the core sees `[m]f32` for `vec [m]`, and a function's size parameter
/// stays the size of its parameter). `None` for any other application.
fn expand_sized_type(constructor: &QualName, args: &[TypeArg]) -> Option<TypeExp> {
    if !constructor.qualifiers.is_empty() {
        return None;
    }
    let (params, definition) =
        SIZED_TYPES.with(|types| types.borrow().get(&constructor.name).cloned())?;
    if params.len() != args.len() {
        return None;
    }
    let mut sizes = std::collections::BTreeMap::new();
    for (param, arg) in params.iter().zip(args) {
        let TypeArg::Size { size, .. } = arg else {
            return None;
        };
        sizes.insert(param.clone(), size.clone());
    }
    // The module-free path's substitution, so both paths expand alike.
    Some(crate::front::from_surface::substitute_type_exp(
        &definition,
        &sizes,
        &std::collections::BTreeMap::new(),
    ))
}

/// Extension: §8.2 on a core with polymorphism of its own (the TFP'18 core).
/// A type argument that mentions a type parameter bound inside the
/// declaration (`pair a` in `def f 'a …`) cannot be passed to an application
/// placed before the declaration; the abbreviation's definition is used
/// with the arguments substituted for its parameters instead (SPEC_NOTES
/// ICFP18-16). `None`: no argument mentions one (the paper's encoding).
fn expand_at_local_type_params(
    params: &[String],
    definition: &TypeExp,
    args: &[TypeArg],
) -> Result<Option<TypeExp>, Failure> {
    if !NATIVE_POLYMORPHISM.with(|n| n.get()) {
        return Ok(None);
    }
    let local = LOCAL_TYPE_PARAMS.with(|params| params.borrow().clone());
    let mut arguments = std::collections::BTreeMap::new();
    let mut mentions_local = false;
    for (param, arg) in params.iter().zip(args) {
        let TypeArg::Type(arg) = arg else {
            return Ok(None);
        };
        let arg = rewrite_type(arg)?;
        mentions_local |= type_mentions(&arg, &local);
        arguments.insert(param.clone(), arg);
    }
    Ok(mentions_local.then(|| substitute_type_names(definition, &arguments)))
}

/// Whether `ty` names (unqualified) one of `names`.
fn type_mentions(ty: &TypeExp, names: &[String]) -> bool {
    let mut found = false;
    substitute_type_names_with(ty, &mut |q| {
        found |= q.qualifiers.is_empty() && names.contains(&q.name);
        None
    });
    found
}

/// `ty` with the unqualified type names of `map` replaced.
fn substitute_type_names(
    ty: &TypeExp,
    map: &std::collections::BTreeMap<String, TypeExp>,
) -> TypeExp {
    substitute_type_names_with(ty, &mut |q| {
        if q.qualifiers.is_empty() {
            map.get(&q.name).cloned()
        } else {
            None
        }
    })
}

/// `ty` with each type name `q` replaced by `f(q)` where that is `Some`.
fn substitute_type_names_with(
    ty: &TypeExp,
    f: &mut dyn FnMut(&QualName) -> Option<TypeExp>,
) -> TypeExp {
    match ty {
        TypeExp::Var(q) => f(q).unwrap_or_else(|| ty.clone()),
        _ => ty.map_children(|t| substitute_type_names_with(t, f)),
    }
}

/// `rewrite` with the type parameters `type_params` bound around it.
fn with_local_type_params<T>(
    type_params: &[spec::syntax::ast::TypeParam],
    rewrite: impl FnOnce() -> Result<T, Failure>,
) -> Result<T, Failure> {
    let names: Vec<String> = type_params
        .iter()
        .filter_map(|p| match p {
            spec::syntax::ast::TypeParam::Type { name, .. } => Some(name.clone()),
            spec::syntax::ast::TypeParam::Size { .. } => None,
        })
        .collect();
    let count = names.len();
    LOCAL_TYPE_PARAMS.with(|params| params.borrow_mut().extend(names));
    let result = rewrite();
    LOCAL_TYPE_PARAMS.with(|params| {
        let mut params = params.borrow_mut();
        let keep = params.len() - count;
        params.truncate(keep);
    });
    result
}

/// `constructor args` with its type arguments rewritten.
fn rewrite_all<T>(
    items: &[T],
    rewrite: impl Fn(&T) -> Result<T, Failure>,
) -> Result<Vec<T>, Failure> {
    items.iter().map(rewrite).collect()
}

fn rewrite_boxed(exp: &Expr) -> Result<Box<Expr>, Failure> {
    rewrite_expr(exp).map(Box::new)
}

fn rewrite_pat(pat: &Pat) -> Result<Pat, Failure> {
    with_stack(|| match pat {
        Pat::Ascribe { pat, ty, span } => Ok(Pat::Ascribe {
            pat: Box::new(rewrite_pat(pat)?),
            ty: rewrite_type(ty)?,
            span: *span,
        }),
        Pat::Tuple { elements, span } => Ok(Pat::Tuple {
            elements: rewrite_all(elements, rewrite_pat)?,
            span: *span,
        }),
        Pat::Record { fields, span } => Ok(Pat::Record {
            fields: fields
                .iter()
                .map(|(name, p)| Ok((name.clone(), rewrite_pat(p)?)))
                .collect::<Result<_, Failure>>()?,
            span: *span,
        }),
        Pat::Constructor {
            name,
            payload,
            span,
        } => Ok(Pat::Constructor {
            name: name.clone(),
            payload: rewrite_all(payload, rewrite_pat)?,
            span: *span,
        }),
        Pat::Attr { attr, pat, span } => Ok(Pat::Attr {
            attr: attr.clone(),
            pat: Box::new(rewrite_pat(pat)?),
            span: *span,
        }),
        Pat::Var { .. } | Pat::Wildcard { .. } | Pat::Literal { .. } => Ok(pat.clone()),
    })
}

fn rewrite_index(index: &DimIndex) -> Result<DimIndex, Failure> {
    let optional = |e: &Option<Expr>| e.as_ref().map(rewrite_expr).transpose();
    Ok(match index {
        DimIndex::Index(e) => DimIndex::Index(rewrite_expr(e)?),
        DimIndex::Slice { start, end, stride } => DimIndex::Slice {
            start: optional(start)?,
            end: optional(end)?,
            stride: optional(stride)?,
        },
    })
}

/// The core expression with every type expression in it rewritten (§8.2:
/// each instantiation of a polymorphic type, wherever it occurs, becomes a
/// projection from a hoisted application), and, on a core without
/// polymorphism, each application of a polymorphic function instantiated
/// (§8.1).
fn rewrite_expr(exp: &Expr) -> Result<Expr, Failure> {
    with_stack(|| match exp {
        Expr::Ascribe { expr, ty, span } => Ok(Expr::Ascribe {
            expr: rewrite_boxed(expr)?,
            ty: rewrite_type(ty)?,
            span: *span,
        }),
        Expr::Coerce { expr, ty, span } => Ok(Expr::Coerce {
            expr: rewrite_boxed(expr)?,
            ty: rewrite_type(ty)?,
            span: *span,
        }),
        Expr::Lambda {
            params,
            return_type,
            body,
            span,
        } => Ok(Expr::Lambda {
            params: rewrite_all(params, rewrite_pat)?,
            return_type: return_type.as_ref().map(rewrite_type).transpose()?,
            body: rewrite_boxed(body)?,
            span: *span,
        }),
        Expr::Apply {
            function,
            argument,
            span,
        } => {
            let argument = rewrite_expr(argument)?;
            if let Expr::Var(name) = function.as_ref() {
                // §8.1
                if let Some(instance) = instantiate_function(name, argument.clone(), *span) {
                    return Ok(instance);
                }
            }
            Ok(Expr::Apply {
                function: rewrite_boxed(function)?,
                argument: Box::new(argument),
                span: *span,
            })
        }
        Expr::BinOp { op, lhs, rhs, span } => Ok(Expr::BinOp {
            op: op.clone(),
            lhs: rewrite_boxed(lhs)?,
            rhs: rewrite_boxed(rhs)?,
            span: *span,
        }),
        Expr::Project { expr, field, span } => Ok(Expr::Project {
            expr: rewrite_boxed(expr)?,
            field: field.clone(),
            span: *span,
        }),
        Expr::Tuple { elements, span } => Ok(Expr::Tuple {
            elements: rewrite_all(elements, rewrite_expr)?,
            span: *span,
        }),
        Expr::Record { fields, span } => Ok(Expr::Record {
            fields: fields
                .iter()
                .map(|(name, e)| Ok((name.clone(), rewrite_expr(e)?)))
                .collect::<Result<_, Failure>>()?,
            span: *span,
        }),
        Expr::Array { elements, span } => Ok(Expr::Array {
            elements: rewrite_all(elements, rewrite_expr)?,
            span: *span,
        }),
        Expr::Range {
            start,
            step,
            end,
            end_kind,
            span,
        } => Ok(Expr::Range {
            start: rewrite_boxed(start)?,
            step: step.as_deref().map(rewrite_boxed).transpose()?,
            end: rewrite_boxed(end)?,
            end_kind: *end_kind,
            span: *span,
        }),
        Expr::Index {
            array,
            indices,
            span,
        } => Ok(Expr::Index {
            array: rewrite_boxed(array)?,
            indices: rewrite_all(indices, rewrite_index)?,
            span: *span,
        }),
        Expr::Negate { expr, span } => Ok(Expr::Negate {
            expr: rewrite_boxed(expr)?,
            span: *span,
        }),
        Expr::Not { expr, span } => Ok(Expr::Not {
            expr: rewrite_boxed(expr)?,
            span: *span,
        }),
        Expr::LeftSection { op, left, span } => Ok(Expr::LeftSection {
            op: op.clone(),
            left: rewrite_boxed(left)?,
            span: *span,
        }),
        Expr::RightSection { op, right, span } => Ok(Expr::RightSection {
            op: op.clone(),
            right: rewrite_boxed(right)?,
            span: *span,
        }),
        Expr::IndexSection { indices, span } => Ok(Expr::IndexSection {
            indices: rewrite_all(indices, rewrite_index)?,
            span: *span,
        }),
        Expr::If {
            condition,
            then_branch,
            else_branch,
            span,
        } => Ok(Expr::If {
            condition: rewrite_boxed(condition)?,
            then_branch: rewrite_boxed(then_branch)?,
            else_branch: rewrite_boxed(else_branch)?,
            span: *span,
        }),
        Expr::Let {
            sizes,
            pat,
            value,
            body,
            span,
        } => Ok(Expr::Let {
            sizes: sizes.clone(),
            pat: rewrite_pat(pat)?,
            value: rewrite_boxed(value)?,
            body: rewrite_boxed(body)?,
            span: *span,
        }),
        Expr::LetFun {
            name,
            type_params,
            params,
            return_type,
            value,
            body,
            span,
        } => {
            let (params, return_type, value) = with_local_type_params(type_params, || {
                Ok((
                    rewrite_all(params, rewrite_pat)?,
                    return_type.as_ref().map(rewrite_type).transpose()?,
                    rewrite_boxed(value)?,
                ))
            })?;
            Ok(Expr::LetFun {
                name: name.clone(),
                type_params: type_params.clone(),
                params,
                return_type,
                value,
                body: rewrite_boxed(body)?,
                span: *span,
            })
        }
        Expr::LetWith {
            name,
            name_span,
            indices,
            value,
            body,
            span,
        } => Ok(Expr::LetWith {
            name: name.clone(),
            name_span: *name_span,
            indices: rewrite_all(indices, rewrite_index)?,
            value: rewrite_boxed(value)?,
            body: rewrite_boxed(body)?,
            span: *span,
        }),
        Expr::Loop {
            pat,
            init,
            form,
            body,
            span,
        } => Ok(Expr::Loop {
            pat: rewrite_pat(pat)?,
            init: init.as_deref().map(rewrite_boxed).transpose()?,
            form: match form {
                LoopForm::For {
                    var,
                    var_span,
                    bound,
                } => LoopForm::For {
                    var: var.clone(),
                    var_span: *var_span,
                    bound: rewrite_boxed(bound)?,
                },
                LoopForm::ForIn { pat, array } => LoopForm::ForIn {
                    pat: rewrite_pat(pat)?,
                    array: rewrite_boxed(array)?,
                },
                LoopForm::While { condition } => LoopForm::While {
                    condition: rewrite_boxed(condition)?,
                },
            },
            body: rewrite_boxed(body)?,
            span: *span,
        }),
        Expr::Update {
            target,
            indices,
            value,
            span,
        } => Ok(Expr::Update {
            target: rewrite_boxed(target)?,
            indices: rewrite_all(indices, rewrite_index)?,
            value: rewrite_boxed(value)?,
            span: *span,
        }),
        Expr::RecordUpdate {
            target,
            fields,
            value,
            span,
        } => Ok(Expr::RecordUpdate {
            target: rewrite_boxed(target)?,
            fields: fields.clone(),
            value: rewrite_boxed(value)?,
            span: *span,
        }),
        Expr::Match {
            scrutinee,
            cases,
            span,
        } => Ok(Expr::Match {
            scrutinee: rewrite_boxed(scrutinee)?,
            cases: cases
                .iter()
                .map(|case| {
                    Ok(MatchCase {
                        pat: rewrite_pat(&case.pat)?,
                        body: rewrite_expr(&case.body)?,
                        span: case.span,
                    })
                })
                .collect::<Result<_, Failure>>()?,
            span: *span,
        }),
        Expr::Constructor {
            name,
            payload,
            span,
        } => Ok(Expr::Constructor {
            name: name.clone(),
            payload: rewrite_all(payload, rewrite_expr)?,
            span: *span,
        }),
        Expr::OpenIn { module, body, span } => Ok(Expr::OpenIn {
            module: module.clone(),
            body: rewrite_boxed(body)?,
            span: *span,
        }),
        Expr::Attr { attr, expr, span } => Ok(Expr::Attr {
            attr: attr.clone(),
            expr: rewrite_boxed(expr)?,
            span: *span,
        }),
        Expr::Literal { .. }
        | Expr::Var(_)
        | Expr::OpSection { .. }
        | Expr::ProjectSection { .. } => Ok(exp.clone()),
    })
}

fn rewrite_value_bind(bind: &ValueBind) -> Result<ValueBind, Failure> {
    Ok(ValueBind {
        params: bind
            .params
            .iter()
            .map(rewrite_pat)
            .collect::<Result<_, _>>()?,
        return_type: bind.return_type.as_ref().map(rewrite_type).transpose()?,
        body: rewrite_expr(&bind.body)?,
        ..bind.clone()
    })
}

/// Translates one declaration, placing the applications its polymorphic
/// types need before it: `local (module %p = P(…)) in d`.
fn with_hoisting(
    span: Span,
    translate: impl FnOnce() -> Result<Vec<KDec>, Failure>,
) -> Result<Vec<KDec>, Failure> {
    HOISTED.with(|frames| frames.borrow_mut().push(Vec::new()));
    let translated = translate();
    let hoisted = HOISTED.with(|frames| frames.borrow_mut().pop().unwrap_or_default());
    let translated = translated?;
    if hoisted.is_empty() {
        return Ok(translated);
    }
    let x = internal_name("X");
    let mut inner = hoisted;
    inner.push(KDec::Module {
        name: x.clone(),
        module: KModExp::Struct(translated, span),
        span,
    });
    Ok(vec![KDec::Open {
        module: KModExp::Proj(Box::new(KModExp::Struct(inner, span)), x, span),
        span,
    }])
}

// ---------------------------------------------------------------------------
// §8.1: polymorphic functions as parameterised modules.
//
// `def name 'a … (f: ty) p… : r = e` ⇒ `module %name = λ%X : { type a … val f :
// ty } → { open %X  def name p… : r = e }`; an application `name exp` inside a
// declaration d places `module %name_n = %name({ type a = τ_a … val f = exp })`
// before d (the kernel form `Instantiate`: τ_a are found from exp's type, "the
// calling context") and becomes `%name_n.name`. As the paper restricts it, exp
// may only mention names bound outside d.

thread_local! {
    static NATIVE_POLYMORPHISM: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static POLY_FUNCTIONS: std::cell::RefCell<std::collections::HashMap<String, (String, String)>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

fn polymorphic_function(bind: &ValueBind) -> Result<Vec<KDec>, Failure> {
    let mut type_names = Vec::new();
    for param in &bind.type_params {
        match param {
            spec::syntax::ast::TypeParam::Type { name, .. } => type_names.push(name.clone()),
            spec::syntax::ast::TypeParam::Size { span, .. } => {
                return Err(outside(
                    "size parameters of polymorphic functions (§8.1)",
                    MODULES,
                    *span,
                ))
            }
        }
    }
    let Some((first, rest)) = bind.params.split_first() else {
        return Err(outside(
            "a polymorphic function without a parameter (§8.1 moves the first parameter into the module)",
            MODULES,
            bind.span,
        ));
    };
    let (param_name, param_type) = match first {
        Pat::Ascribe { pat, ty, .. } => match pat.as_ref() {
            Pat::Var { name, .. } => (name.clone(), ty.clone()),
            other => {
                return Err(outside(
                    "this first parameter (§8.1 needs `(f: ty)`)",
                    MODULES,
                    other.span(),
                ))
            }
        },
        other => {
            return Err(outside(
                "this first parameter (§8.1 needs `(f: ty)`)",
                MODULES,
                other.span(),
            ))
        }
    };
    let span = bind.span;
    let functor = internal_name(&bind.name);
    let x = internal_name("X");
    let mut specs: Vec<KSpec> = type_names
        .iter()
        .map(|name| KSpec::Type {
            name: name.clone(),
            span,
        })
        .collect();
    specs.push(KSpec::Val {
        name: param_name.clone(),
        type_params: Vec::new(),
        ty: rewrite_type(&param_type)?,
        span,
    });
    let inner = Dec::Value(ValueBind {
        type_params: Vec::new(),
        params: rest.to_vec(),
        ..bind.clone()
    });
    let mut body = vec![KDec::Open {
        module: KModExp::Id(x.clone(), span),
        span,
    }];
    body.extend(dec(&inner)?);
    POLY_FUNCTIONS.with(|functions| {
        functions
            .borrow_mut()
            .insert(bind.name.clone(), (functor.clone(), param_name))
    });
    Ok(vec![KDec::Module {
        name: functor,
        module: KModExp::Lambda {
            param: x,
            mod_type: KModType::Sig(specs, span),
            body: Rc::new(KModExp::Struct(body, span)),
            span,
        },
        span,
    }])
}

/// `name exp` for a polymorphic function `name`: the hoisted instantiation and
/// the projection replacing the application.
fn instantiate_function(function: &QualName, argument: Expr, span: Span) -> Option<Expr> {
    if !function.qualifiers.is_empty() {
        return None;
    }
    let (functor, param) =
        POLY_FUNCTIONS.with(|functions| functions.borrow().get(&function.name).cloned())?;
    let instance = internal_name(&function.name);
    let value = ValueBind {
        kind: spec::syntax::ast::ValueBindKind::Def,
        name: param,
        type_params: Vec::new(),
        params: Vec::new(),
        return_type: None,
        body: argument,
        span,
    };
    let application = KDec::Module {
        name: instance.clone(),
        module: KModExp::Instantiate {
            functor: QualName::unqualified(functor, span),
            value: Box::new(value),
            span,
        },
        span,
    };
    HOISTED.with(|frames| {
        if let Some(frame) = frames.borrow_mut().last_mut() {
            frame.push(application)
        }
    });
    Some(Expr::Var(QualName {
        qualifiers: vec![instance],
        name: function.name.clone(),
        span,
    }))
}
