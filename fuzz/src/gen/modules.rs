//! The module-level generator (ICFP'18 §3–4): module types with an abstract
//! type (and `include`), structures implementing them under opaque
//! ascription, `with` refinement or none, structures with `local`
//! declarations and nested modules, `open` and `local open`, parametric
//! modules (functors, also as `\(X: S) -> me`), their application to named
//! and anonymous structures, curried functors and their partial application,
//! and higher-order functors taking a functor argument (inside a structure,
//! as ICFP'18 rule 28 requires).
//!
//! Core fragments fill every structure: each `def` body comes from
//! [`super::core`], generated in the environment the elaborator will see at
//! that point (inside a structure implementing `S`, `t` is its carrier; inside
//! a functor body, `X.t` is abstract). What a module exports is recorded in
//! the generator's [`World`] and bound, qualified, in the core environment.

use super::build::*;
use super::env::{Env, StructureInfo};
use super::mutate::MutationKind;
use super::types::*;
use super::Generator;
use spec::syntax::ast::*;

/// A module type `S = { type t  val ... }`: its value specs mention the
/// abstract type as `Ty::Abstract(["t"])`.
#[derive(Clone, Debug)]
pub struct SignatureInfo {
    pub name: String,
    pub vals: Vec<(String, Ty)>,
    /// Signatures this one includes (so a module of this type matches them).
    pub includes: Vec<usize>,
    /// A manifest type spec `type u = τ`, which implementations repeat.
    pub manifest: Option<(String, Ty)>,
}

/// A structure that implements signature `signature`: `t_view` is what its
/// `t` is outside (abstract `M.t`, or the carrier when transparent).
#[derive(Clone, Debug)]
pub struct ModuleInfo {
    pub name: String,
    pub signature: usize,
    pub t_view: Ty,
}

/// A functor parameter `(X: S)` or `(X: S with t = C)`.
#[derive(Clone, Debug)]
pub struct ParamInfo {
    pub name: String,
    pub signature: usize,
    pub refinement: Option<Ty>,
}

/// A (possibly partially applied) functor: remaining parameters and the
/// schemes of what its body exports (mentioning `X.t` for parameters `X`).
#[derive(Clone, Debug)]
pub struct FunctorInfo {
    pub name: String,
    pub params: Vec<ParamInfo>,
    pub exports: Vec<(String, Scheme)>,
}

/// Everything module-level declared so far.
#[derive(Clone, Debug, Default)]
pub struct World {
    pub signatures: Vec<SignatureInfo>,
    pub modules: Vec<ModuleInfo>,
    pub functors: Vec<FunctorInfo>,
}

fn abstract_local() -> Ty {
    Ty::Abstract(vec!["t".to_string()])
}

/// Replaces the abstract type `from` by `to` throughout `ty`.
fn replace_abstract(ty: &Ty, from: &Ty, to: &Ty) -> Ty {
    ty.map_opaque(&|t| if t == from { Some(to.clone()) } else { None })
}

fn replace_in_scheme(scheme: &Scheme, from: &Ty, to: &Ty) -> Scheme {
    Scheme {
        size_params: scheme.size_params.clone(),
        type_params: scheme.type_params.clone(),
        ty: replace_abstract(&scheme.ty, from, to),
    }
}

impl World {
    /// Whether a module of signature `have` matches signature `want`.
    fn matches(&self, have: usize, want: usize) -> bool {
        have == want
            || self.signatures[have]
                .includes
                .iter()
                .any(|included| self.matches(*included, want))
    }

    /// The manifest type specs of a signature, included ones first.
    fn all_manifest(&self, signature: usize) -> Vec<(String, Ty)> {
        let info = &self.signatures[signature];
        let mut out: Vec<(String, Ty)> = info
            .includes
            .iter()
            .flat_map(|i| self.all_manifest(*i))
            .collect();
        out.extend(info.manifest.iter().cloned());
        out
    }

    /// The value specs of a signature, included ones first.
    fn all_vals(&self, signature: usize) -> Vec<(String, Ty)> {
        let info = &self.signatures[signature];
        let mut out: Vec<(String, Ty)> = info
            .includes
            .iter()
            .flat_map(|i| self.all_vals(*i))
            .collect();
        out.extend(info.vals.iter().cloned());
        out
    }
}

impl Generator {
    /// One scenario of module-level declarations; each creates what it
    /// needs (a signature, an implementation, a functor) when the world so
    /// far lacks it.
    pub fn module_section(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        match self.choices.weighted(&[3, 2, 4, 2]) {
            0 => {
                self.ensure_signature(env, decs);
                self.implementation_dec(env, decs);
            }
            1 => self.plain_structure(env, decs),
            2 => {
                self.ensure_signature(env, decs);
                self.ensure_module(env, decs);
                if self.world.functors.is_empty() || self.choices.chance(1, 2) {
                    self.functor_dec(env, decs);
                }
                let functor = self.choices.below(self.world.functors.len() as u32) as usize;
                if let Some(partial) = self.application_dec(env, decs, functor) {
                    if self.choices.chance(2, 3) {
                        self.application_dec(env, decs, partial);
                    }
                }
            }
            _ => {
                self.ensure_signature(env, decs);
                self.ensure_module(env, decs);
                for _ in 0..3 {
                    if self.higher_order_ready() {
                        break;
                    }
                    self.functor_dec(env, decs);
                }
                if self.higher_order_ready() {
                    self.higher_order_dec(env, decs);
                }
            }
        }
    }

    fn higher_order_ready(&self) -> bool {
        self.world.functors.iter().any(|f| {
            f.params.len() == 1 && f.params[0].refinement.is_none() && concrete_export(f).is_some()
        })
    }

    /// A signature exists afterwards (sometimes a new one including an old one).
    fn ensure_signature(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        if self.world.signatures.is_empty() {
            self.signature_dec(env, decs);
        } else if self.choices.chance(1, 4) {
            let parent = self.choices.below(self.world.signatures.len() as u32) as usize;
            self.signature_with_include(env, decs, parent);
        } else if self.choices.chance(1, 4) {
            self.signature_dec(env, decs);
        }
    }

    fn ensure_module(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        if self.world.modules.is_empty() || self.choices.chance(1, 3) {
            self.implementation_dec(env, decs);
        }
    }

    fn concrete_type(&mut self, env: &Env) -> Ty {
        loop {
            let ty = self.random_type(env, true, 1);
            if !ty.has_opaque_part() {
                return ty;
            }
        }
    }

    /// `module type S = { type t  val mk : c -> t  val get : t -> c  ... }`.
    fn signature_dec(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let name = self.fresh("S");
        let t = abstract_local();
        let mut vals = Vec::new();
        let input = Ty::Prim(self.random_prim());
        vals.push((self.fresh("mk"), arrow(input, t.clone())));
        let output = self.concrete_type(env);
        vals.push((self.fresh("get"), arrow(t.clone(), output)));
        for _ in 0..self.choices.below(3) {
            let ty = match self.choices.below(3) {
                0 => arrow(t.clone(), t.clone()),
                1 => arrow(t.clone(), arrow(t.clone(), t.clone())),
                _ => arrow(Ty::Prim(self.random_prim()), self.concrete_type(env)),
            };
            vals.push((self.fresh("op"), ty));
        }
        let manifest = if self.choices.chance(1, 3) {
            let ty = self.concrete_type(env);
            Some((self.fresh("u"), ty))
        } else {
            None
        };
        self.push_signature(env, decs, name, vals, None, manifest);
    }

    /// `module type S' = { include S  val extra : t -> t }`.
    fn signature_with_include(&mut self, env: &mut Env, decs: &mut Vec<Dec>, parent: usize) {
        let name = self.fresh("S");
        let t = abstract_local();
        let vals = vec![(self.fresh("op"), arrow(t.clone(), t))];
        self.push_signature(env, decs, name, vals, Some(parent), None);
    }

    fn push_signature(
        &mut self,
        env: &Env,
        decs: &mut Vec<Dec>,
        name: String,
        vals: Vec<(String, Ty)>,
        include: Option<usize>,
        manifest: Option<(String, Ty)>,
    ) {
        let mut specs = Vec::new();
        match include {
            Some(parent) => specs.push(Spec::Include {
                mod_type: ModTypeExp::Var(qual(&[], &self.world.signatures[parent].name)),
                span: span(),
            }),
            None => specs.push(Spec::Type {
                liftedness: Liftedness::Unlifted,
                name: "t".to_string(),
                params: Vec::new(),
                definition: None,
                span: span(),
            }),
        }
        if let Some((type_name, ty)) = &manifest {
            specs.push(Spec::Type {
                liftedness: Liftedness::Unlifted,
                name: type_name.clone(),
                params: Vec::new(),
                definition: Some(env.type_exp(ty)),
                span: span(),
            });
        }
        for (val, ty) in &vals {
            specs.push(Spec::Val {
                name: val.clone(),
                type_params: Vec::new(),
                ty: env.type_exp(ty),
                span: span(),
            });
        }
        decs.push(Dec::ModuleType(ModuleTypeBind {
            name: name.clone(),
            definition: ModTypeExp::Signature {
                specs,
                span: span(),
            },
            span: span(),
        }));
        self.world.signatures.push(SignatureInfo {
            name,
            vals,
            includes: include.into_iter().collect(),
            manifest,
        });
    }

    /// The declarations of a structure implementing `signature` with
    /// carrier `carrier`: `type t = carrier` and one `def` per value spec.
    fn implementation_body(&mut self, env: &mut Env, signature: usize, carrier: &Ty) -> Vec<Dec> {
        let mut decs = vec![Dec::Type(TypeBind {
            liftedness: Liftedness::Unlifted,
            name: "t".to_string(),
            params: Vec::new(),
            definition: env.type_exp(carrier),
            span: span(),
        })];
        for (type_name, ty) in self.world.all_manifest(signature) {
            decs.push(Dec::Type(TypeBind {
                liftedness: Liftedness::Unlifted,
                name: type_name,
                params: Vec::new(),
                definition: env.type_exp(&ty),
                span: span(),
            }));
        }
        let mark = env.mark();
        // Implementations stay small: the core generator is exercised elsewhere.
        let depth = (self.config.depth / 2).max(1);
        for (name, spec_ty) in self.world.all_vals(signature) {
            let concrete = replace_abstract(&spec_ty, &abstract_local(), carrier);
            let (params, result) = concrete.uncurry();
            let (spec_params, spec_result) = spec_ty.uncurry();
            let mut patterns = Vec::new();
            let inner = env.mark();
            for (param, spec_param) in params.iter().zip(&spec_params) {
                let variable = self.fresh("x");
                patterns.push(pat_ascribe(pat_var(&variable), env.type_exp(spec_param)));
                env.bind(&variable, (*param).clone(), false);
            }
            let body = self.expr(env, result, depth);
            let body = if params.is_empty() || self.config.paper_core {
                body
            } else {
                super::program::fresh_result(body, result)
            };
            env.truncate(inner);
            decs.push(Dec::Value(ValueBind {
                kind: ValueBindKind::Def,
                name: name.clone(),
                type_params: Vec::new(),
                params: patterns,
                return_type: Some(env.type_exp(spec_result)),
                body,
                span: span(),
            }));
            env.bind(&name, concrete.clone(), false);
        }
        env.truncate(mark);
        decs
    }

    /// `module M : S = { ... }` (opaque), `module M : S with t = c = ...`,
    /// `module M = ({ ... } : S)` or `module M = { ... }`.
    fn implementation_dec(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let signature = self.choices.below(self.world.signatures.len() as u32) as usize;
        let carrier = self.concrete_type(env);
        let name = self.fresh("M");
        let mut body_decs = self.implementation_body(env, signature, &carrier);
        let signature_name = self.world.signatures[signature].name.clone();
        let signature_exp = ModTypeExp::Var(qual(&[], &signature_name));
        let form = self.choices.weighted(&[4, 2, 1, 1]);
        // The mutant drops the structure's last value definition where it
        // is ascribed the module type (`module M = ({ ... } : S)`).
        if form == 2
            && self.config.extra_mutations
            && self.mutation_site(MutationKind::MissingValInAscription)
        {
            if let Some(last) = body_decs.iter().rposition(|d| matches!(d, Dec::Value(_))) {
                body_decs.remove(last);
            }
        }
        let structure = ModExp::Struct {
            decs: body_decs,
            span: span(),
        };
        let opaque_view = Ty::Abstract(vec![name.clone(), "t".to_string()]);
        let (signature_ascription, body, t_view) = match form {
            0 => (Some(signature_exp), structure, opaque_view.clone()),
            1 => (
                Some(ModTypeExp::With {
                    mod_type: Box::new(signature_exp),
                    refinement: TypeRefinement {
                        name: qual(&[], "t"),
                        params: Vec::new(),
                        definition: env.type_exp(&carrier),
                    },
                    span: span(),
                }),
                structure,
                carrier.clone(),
            ),
            2 => (
                None,
                ModExp::Ascribe {
                    module: Box::new(structure),
                    mod_type: signature_exp,
                    span: span(),
                },
                opaque_view.clone(),
            ),
            _ => (None, structure, carrier.clone()),
        };
        decs.push(Dec::Module(ModuleBind {
            name: name.clone(),
            params: Vec::new(),
            signature: signature_ascription,
            body,
            span: span(),
        }));
        if t_view == opaque_view {
            env.carriers
                .push((vec![name.clone(), "t".to_string()], carrier));
        }
        self.bind_module_values(env, &name, signature, &t_view);
        self.world.modules.push(ModuleInfo {
            name,
            signature,
            t_view,
        });
    }

    fn bind_module_values(&mut self, env: &mut Env, name: &str, signature: usize, t_view: &Ty) {
        let mut values = Vec::new();
        for (val, ty) in self.world.all_vals(signature) {
            let ty = replace_abstract(&ty, &abstract_local(), t_view);
            env.bind_scheme(vec![name.to_string()], &val, Scheme::mono(ty.clone()));
            values.push((val, Scheme::mono(ty)));
        }
        env.structures.push(StructureInfo {
            path: vec![name.to_string()],
            values,
        });
    }

    /// `module M = { local def h ... def f ... module Inner = { ... } }`,
    /// then maybe `open M` or `local open M`.
    fn plain_structure(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let name = self.fresh("M");
        let mark = env.mark();
        let mut body = Vec::new();
        let mut exports: Vec<(Vec<String>, String, Scheme)> = Vec::new();
        self.names_in_level.clear();
        let count = self.choices.range(1, 2);
        for k in 0..count {
            let (dec, def_name, scheme) = self.function_dec(env, true);
            env.bind_scheme(Vec::new(), &def_name, scheme.clone());
            if k == 0 && count > 1 && self.choices.chance(1, 2) {
                body.push(Dec::Local {
                    dec: Box::new(dec),
                    span: span(),
                });
            } else {
                exports.retain(|(q, n, _)| !(q.is_empty() && *n == def_name));
                exports.push((Vec::new(), def_name, scheme));
                body.push(dec);
            }
        }
        if self.choices.chance(1, 3) {
            let inner = self.fresh("Inner");
            let (dec, def_name, scheme) = self.function_dec(env, true);
            body.push(Dec::Module(ModuleBind {
                name: inner.clone(),
                params: Vec::new(),
                signature: None,
                body: ModExp::Struct {
                    decs: vec![dec],
                    span: span(),
                },
                span: span(),
            }));
            exports.push((vec![inner], def_name, scheme));
        }
        env.truncate(mark);
        decs.push(Dec::Module(ModuleBind {
            name: name.clone(),
            params: Vec::new(),
            signature: None,
            body: ModExp::Struct {
                decs: body,
                span: span(),
            },
            span: span(),
        }));
        let mut top_values = Vec::new();
        for (inner, def_name, scheme) in &exports {
            let mut qualifiers = vec![name.clone()];
            qualifiers.extend(inner.iter().cloned());
            env.bind_scheme(qualifiers, def_name, scheme.clone());
            if inner.is_empty() {
                top_values.push((def_name.clone(), scheme.clone()));
            }
        }
        env.structures.push(StructureInfo {
            path: vec![name.clone()],
            values: top_values,
        });
        if self.choices.chance(1, 2) {
            let open = Dec::Open {
                module: ModExp::Var(qual(&[], &name)),
                span: span(),
            };
            decs.push(if self.choices.chance(1, 3) {
                Dec::Local {
                    dec: Box::new(open),
                    span: span(),
                }
            } else {
                open
            });
            for (inner, def_name, scheme) in exports {
                env.bind_scheme(inner, &def_name, scheme);
            }
        }
    }

    /// A functor parameter: a signature, sometimes refined `with t = c`
    /// where some module's `t` is visibly `c`.
    fn functor_param(&mut self, env: &mut Env) -> (ParamInfo, ModTypeExp) {
        let signature = self.choices.below(self.world.signatures.len() as u32) as usize;
        let name = self.fresh("X");
        let transparent: Vec<Ty> = self
            .world
            .modules
            .iter()
            .filter(|m| {
                self.world.matches(m.signature, signature) && !matches!(m.t_view, Ty::Abstract(_))
            })
            .map(|m| m.t_view.clone())
            .collect();
        let signature_exp = ModTypeExp::Var(qual(&[], &self.world.signatures[signature].name));
        if !transparent.is_empty() && self.choices.chance(1, 4) {
            let index = self.choices.below(transparent.len() as u32) as usize;
            let carrier = transparent[index].clone();
            let exp = ModTypeExp::With {
                mod_type: Box::new(signature_exp),
                refinement: TypeRefinement {
                    name: qual(&[], "t"),
                    params: Vec::new(),
                    definition: env.type_exp(&carrier),
                },
                span: span(),
            };
            return (
                ParamInfo {
                    name,
                    signature,
                    refinement: Some(carrier),
                },
                exp,
            );
        }
        (
            ParamInfo {
                name,
                signature,
                refinement: None,
            },
            signature_exp,
        )
    }

    /// `module F (X: S) (Y: S') = { def ... }` or `module F = \(X: S) -> { ... }`.
    fn functor_dec(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let name = self.fresh("F");
        let param_count = if self.choices.chance(1, 3) { 2 } else { 1 };
        let mark = env.mark();
        let mut params = Vec::new();
        let mut param_exps = Vec::new();
        for _ in 0..param_count {
            let (param, exp) = self.functor_param(env);
            let view = param
                .refinement
                .clone()
                .unwrap_or_else(|| Ty::Abstract(vec![param.name.clone(), "t".to_string()]));
            for (val, ty) in self.world.all_vals(param.signature) {
                let ty = replace_abstract(&ty, &abstract_local(), &view);
                env.bind_scheme(vec![param.name.clone()], &val, Scheme::mono(ty));
            }
            params.push(param);
            param_exps.push(exp);
        }
        let mut body = Vec::new();
        let mut exports: Vec<(String, Scheme)> = Vec::new();
        self.names_in_level.clear();
        let count = self.choices.range(1, 2);
        for _ in 0..count {
            let (dec, def_name, scheme) = self.function_dec(env, true);
            env.bind_scheme(Vec::new(), &def_name, scheme.clone());
            exports.retain(|(n, _)| *n != def_name);
            exports.push((def_name, scheme));
            body.push(dec);
        }
        let mut result_signature = None;
        if self.choices.chance(1, 3) {
            // `module F (X: S) : { val f : … } = …`: the result signature
            // keeps some exports (it may mention `X.t`).
            let kept: Vec<(String, Scheme)> = exports
                .iter()
                .filter(|(_, s)| !s.ty.has_unknown_size())
                .cloned()
                .collect();
            if !kept.is_empty() {
                let specs = kept
                    .iter()
                    .map(|(val, scheme)| Spec::Val {
                        name: val.clone(),
                        type_params: scheme_type_params(scheme),
                        ty: env.type_exp(&scheme.ty),
                        span: span(),
                    })
                    .collect();
                result_signature = Some(ModTypeExp::Signature {
                    specs,
                    span: span(),
                });
                exports = kept;
            }
        }
        env.truncate(mark);
        let structure = ModExp::Struct {
            decs: body,
            span: span(),
        };
        let as_lambda = param_count == 1 && self.choices.chance(1, 4);
        let binding = if as_lambda {
            ModuleBind {
                name: name.clone(),
                params: Vec::new(),
                signature: None,
                body: ModExp::Lambda {
                    param: Box::new(ModParam {
                        name: params[0].name.clone(),
                        mod_type: param_exps[0].clone(),
                        span: span(),
                    }),
                    result: result_signature,
                    body: Box::new(structure),
                    span: span(),
                },
                span: span(),
            }
        } else {
            ModuleBind {
                name: name.clone(),
                params: params
                    .iter()
                    .zip(param_exps)
                    .map(|(p, exp)| ModParam {
                        name: p.name.clone(),
                        mod_type: exp,
                        span: span(),
                    })
                    .collect(),
                signature: result_signature,
                body: structure,
                span: span(),
            }
        };
        decs.push(Dec::Module(binding));
        self.world.functors.push(FunctorInfo {
            name,
            params,
            exports,
        });
    }

    /// A module argument for parameter `param`: a named module whose type
    /// matches (and whose `t` is the refinement, if any), or an anonymous
    /// structure. Returns the module expression and its `t` as seen outside.
    fn functor_argument(&mut self, env: &mut Env, param: &ParamInfo) -> (ModExp, Ty) {
        let candidates: Vec<ModuleInfo> = self
            .world
            .modules
            .iter()
            .filter(|m| {
                self.world.matches(m.signature, param.signature)
                    && param.refinement.as_ref().is_none_or(|r| *r == m.t_view)
            })
            .cloned()
            .collect();
        if candidates.is_empty() || self.choices.chance(1, 5) {
            let carrier = match &param.refinement {
                Some(carrier) => carrier.clone(),
                None => self.concrete_type(env),
            };
            let decs = self.implementation_body(env, param.signature, &carrier);
            return (ModExp::Struct { decs, span: span() }, carrier);
        }
        let index = self.choices.below(candidates.len() as u32) as usize;
        let chosen = &candidates[index];
        (ModExp::Var(qual(&[], &chosen.name)), chosen.t_view.clone())
    }

    /// `module N = F M` (all arguments), or `module P = F M` for a curried
    /// `F` (partial application: `P` is a functor).
    /// Returns the index of the new functor when the application is partial.
    fn application_dec(
        &mut self,
        env: &mut Env,
        decs: &mut Vec<Dec>,
        index: usize,
    ) -> Option<usize> {
        let functor = self.world.functors[index].clone();
        let name = self.fresh(if functor.params.len() > 1 { "P" } else { "N" });
        let applied = if functor.params.len() > 1 && self.choices.chance(1, 2) {
            1
        } else {
            functor.params.len()
        };
        let mut module = ModExp::Var(qual(&[], &functor.name));
        let mut exports = functor.exports.clone();
        for param in &functor.params[..applied] {
            let (mut argument, view) = self.functor_argument(env, param);
            if self.mutation_site(MutationKind::MissingValInFunctorArgument) {
                // Drop a definition the parameter's signature asks for.
                argument = ModExp::Struct {
                    decs: vec![Dec::Type(TypeBind {
                        liftedness: Liftedness::Unlifted,
                        name: "t".to_string(),
                        params: Vec::new(),
                        definition: env.type_exp(param.refinement.as_ref().unwrap_or(&i32_ty())),
                        span: span(),
                    })],
                    span: span(),
                };
            }
            let from = Ty::Abstract(vec![param.name.clone(), "t".to_string()]);
            exports = exports
                .iter()
                .map(|(n, s)| (n.clone(), replace_in_scheme(s, &from, &view)))
                .collect();
            module = ModExp::Apply {
                functor: Box::new(module),
                argument: Box::new(argument),
                span: span(),
            };
        }
        decs.push(Dec::Module(ModuleBind {
            name: name.clone(),
            params: Vec::new(),
            signature: None,
            body: module,
            span: span(),
        }));
        if applied < functor.params.len() {
            self.world.functors.push(FunctorInfo {
                name,
                params: functor.params[applied..].to_vec(),
                exports,
            });
            return Some(self.world.functors.len() - 1);
        }
        let mut values = Vec::new();
        for (val, scheme) in exports {
            env.bind_scheme(vec![name.clone()], &val, scheme.clone());
            values.push((val, scheme));
        }
        env.structures.push(StructureInfo {
            path: vec![name],
            values,
        });
        None
    }

    /// `module H (P: { module G : (X: S) -> { val g : a -> b } }) (A: S) = P.G A`
    /// and `module Z = H { module G = F } M`.
    fn higher_order_dec(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let functors: Vec<FunctorInfo> = self
            .world
            .functors
            .iter()
            .filter(|f| {
                f.params.len() == 1
                    && f.params[0].refinement.is_none()
                    && concrete_export(f).is_some()
            })
            .cloned()
            .collect();
        let index = self.choices.below(functors.len() as u32) as usize;
        let functor = functors[index].clone();
        let (export_name, export_ty) = concrete_export(&functor).expect("a concrete export");
        let signature = functor.params[0].signature;
        let signature_name = self.world.signatures[signature].name.clone();
        let name = self.fresh("H");
        let g = self.fresh("G");
        let a = self.fresh("A");
        let x = self.fresh("X");
        let result_signature = ModTypeExp::Signature {
            specs: vec![Spec::Val {
                name: export_name.clone(),
                type_params: Vec::new(),
                ty: env.type_exp(&export_ty),
                span: span(),
            }],
            span: span(),
        };
        let functor_type = ModTypeExp::Arrow {
            param: if self.choices.chance(1, 2) {
                Some(x)
            } else {
                None
            },
            from: Box::new(ModTypeExp::Var(qual(&[], &signature_name))),
            to: Box::new(result_signature),
            span: span(),
        };
        // ICFP'18 rule 28: a parameter's module type is non-parameterised, so
        // the functor argument travels inside a structure:
        // `module H (P: { module G : (X: S) -> R }) (A: S) = P.G A`.
        let wrapper = self.fresh("P");
        decs.push(Dec::Module(ModuleBind {
            name: name.clone(),
            params: vec![
                ModParam {
                    name: wrapper.clone(),
                    mod_type: ModTypeExp::Signature {
                        specs: vec![Spec::Module {
                            name: g.clone(),
                            mod_type: functor_type,
                            span: span(),
                        }],
                        span: span(),
                    },
                    span: span(),
                },
                ModParam {
                    name: a.clone(),
                    mod_type: ModTypeExp::Var(qual(&[], &signature_name)),
                    span: span(),
                },
            ],
            signature: None,
            body: ModExp::Apply {
                functor: Box::new(ModExp::Var(qual(std::slice::from_ref(&wrapper), &g))),
                argument: Box::new(ModExp::Var(qual(&[], &a))),
                span: span(),
            },
            span: span(),
        }));
        let argument = ParamInfo {
            name: a,
            signature,
            refinement: None,
        };
        let (module_argument, _) = self.functor_argument(env, &argument);
        let result = self.fresh("Z");
        decs.push(Dec::Module(ModuleBind {
            name: result.clone(),
            params: Vec::new(),
            signature: None,
            body: ModExp::Apply {
                functor: Box::new(ModExp::Apply {
                    functor: Box::new(ModExp::Var(qual(&[], &name))),
                    argument: Box::new(ModExp::Struct {
                        decs: vec![Dec::Module(ModuleBind {
                            name: g,
                            params: Vec::new(),
                            signature: None,
                            body: ModExp::Var(qual(&[], &functor.name)),
                            span: span(),
                        })],
                        span: span(),
                    }),
                    span: span(),
                }),
                argument: Box::new(module_argument),
                span: span(),
            },
            span: span(),
        }));
        env.bind_scheme(
            vec![result.clone()],
            &export_name,
            Scheme::mono(export_ty.clone()),
        );
        env.structures.push(StructureInfo {
            path: vec![result],
            values: vec![(export_name, Scheme::mono(export_ty))],
        });
    }
}

/// An export of a one-parameter functor whose type does not depend on the
/// parameter (monomorphic, no abstract type, no unknown size).
fn concrete_export(functor: &FunctorInfo) -> Option<(String, Ty)> {
    functor
        .exports
        .iter()
        .find(|(_, s)| s.is_mono() && !s.ty.has_opaque_part() && !s.ty.has_unknown_size())
        .map(|(n, s)| (n.clone(), s.ty.clone()))
}

/// The type parameters of a val spec for `scheme`: `[n]`, `'a`, `'^a`.
fn scheme_type_params(scheme: &Scheme) -> Vec<TypeParam> {
    let sizes = scheme.size_params.iter().map(|n| TypeParam::Size {
        name: n.clone(),
        span: span(),
    });
    let types = scheme.type_params.iter().map(|n| {
        let lifted = Ty::LiftedParam(n.clone());
        let is_lifted = scheme.ty.map_opaque(&|t| (*t == lifted).then(i32_ty)) != scheme.ty;
        TypeParam::Type {
            name: n.clone(),
            liftedness: if is_lifted {
                Liftedness::Lifted
            } else {
                Liftedness::Unlifted
            },
            span: span(),
        }
    });
    sizes.chain(types).collect()
}
