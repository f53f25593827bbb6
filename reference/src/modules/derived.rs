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
//! Internal identifiers start with `%`, which no surface identifier can.

use super::error::{outside, Failure};
use super::kernel::{KDec, KModExp, KModType, KSpec};
use spec::recursion::with_stack;
use spec::source::Span;
use spec::syntax::ast::{Dec, ModExp, ModTypeExp, Program, QualName, Spec, TypeRefinement};
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
    NEXT_INTERNAL.with(|next| next.set(0));
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
    with_stack(|| match dec_in {
        Dec::Value(bind) => Ok(vec![KDec::Core(Box::new(bind.clone()))]),
        Dec::Type(bind) => {
            if !bind.params.is_empty() {
                return Err(outside(
                    "type declarations with parameters (§8's polymorphic types are not transcribed yet)",
                    MODULES,
                    bind.span,
                ));
            }
            Ok(vec![KDec::Type {
                name: bind.name.clone(),
                ty: bind.definition.clone(),
                span: bind.span,
            }])
        }
        Dec::Module(bind) => {
            let mut body = mod_exp(&bind.body)?;
            if let Some(signature) = &bind.signature {
                // eqs. (6), (7): the signature constrains the body.
                body = KModExp::Ascribe {
                    module: Box::new(body),
                    mod_type: mod_type(signature)?,
                    span: bind.span,
                };
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
        Dec::Local { dec, span } => {
            // Only reached for a `local` that `decs` did not see (never).
            let inner = self::decs(std::slice::from_ref(dec.as_ref()))?;
            let _ = span;
            Ok(inner)
        }
        Dec::Attr { dec, .. } => self::dec(dec),
    })
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
                body = KModExp::Ascribe {
                    module: Box::new(body),
                    mod_type: mod_type(result)?,
                    span: *span,
                };
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
                ty: definition.clone(),
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
            if !type_params.is_empty() {
                return Err(outside(
                    "value specifications with type parameters",
                    MODULES,
                    *span,
                ));
            }
            Ok(KSpec::Val {
                name: name.clone(),
                ty: ty.clone(),
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
            if !params.is_empty() {
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
                        ty: ty.clone(),
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
