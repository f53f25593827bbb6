//! Declarations in sequence, and the first layer of the module language:
//! structures `module m = { decs }`, module aliases, nested modules, qualified
//! names (`m.x`, `m.n.t`, `m.+`), `open`, `local`, and `m.(e)`.
//!
//! Module types and ascription are in `signatures`. Functors: the body is
//! checked once, with the parameter bound to its module type's
//! specifications (abstract types rigid); an application matches the argument
//! (a structure or, for higher-order functors, a functor) against the
//! parameter's module type and instantiates the result. Not supported yet,
//! reported with an `unsupported` diagnostic (and the module bound as
//! [`ModuleValue::Poisoned`], so its uses stay silent): nothing at present.
//!
//! `import "f"` reads `f.fut` through the run's `ImportLoader`; each file is
//! checked once, in the built-in environment, and denotes the structure of
//! its declarations. As a declaration it brings them into scope without
//! re-declaring them; `module m = import "f"` binds them as a module.
//!
//! A structure is the [`Env`] of the bindings it declares; `open m` declares
//! the bindings of `m` (as ICFP'18's rule for `open`), `local dec` only
//! brings `dec`'s bindings into scope.

use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{Dec, Liftedness, ModExp, ModParam, ModTypeExp, Name, QualName, TypeParam};

use super::env::{
    AbbreviationParam, AbstractType, Env, Functor, ModuleValue, TypeBinding, ValueBinding,
};
use super::signatures::{bind_abstract, named_after, poisoned_signature, renamed};
use super::{CheckResult, CheckedBinding, Checker};
use crate::types::Scheme;
use crate::types::{RigidName, RigidSubstitution, Type};

/// Where a sequence of declarations puts what it declares.
pub(crate) struct Declarations<'a> {
    /// What is in scope for the next declaration.
    pub(crate) scope: Env,
    /// What the enclosing structure (or program) declares.
    pub(crate) exports: Env,
    pub(crate) bindings: &'a mut Vec<CheckedBinding>,
    pub(crate) diagnostics: &'a mut Vec<Diagnostic>,
}

impl Declarations<'_> {
    fn declare_value(&mut self, name: &Name, binding: ValueBinding) {
        self.scope = self.scope.with_value(name.clone(), binding.clone());
        self.exports = self.exports.with_value(name.clone(), binding);
    }

    fn declare_type(&mut self, name: &Name, binding: TypeBinding) {
        self.scope = self.scope.with_type(name.clone(), binding.clone());
        self.exports = self.exports.with_type(name.clone(), binding);
    }

    fn declare_module(&mut self, name: &Name, module: ModuleValue) {
        self.scope = self.scope.with_module(name.clone(), module.clone());
        self.exports = self.exports.with_module(name.clone(), module);
    }
}

impl Checker<'_> {
    /// Checks `decs` in order, each in the scope left by the previous ones.
    pub(crate) fn check_decs(&mut self, decs: &[Dec], declarations: &mut Declarations<'_>) {
        for dec in decs {
            self.check_dec(dec, declarations);
        }
    }

    fn check_dec(&mut self, dec: &Dec, declarations: &mut Declarations<'_>) {
        spec::recursion::with_stack(|| self.check_dec_inner(dec, declarations))
    }

    fn check_dec_inner(&mut self, dec: &Dec, declarations: &mut Declarations<'_>) {
        match dec {
            Dec::Value(bind) => {
                let scheme = match self.check_value_bind(&declarations.scope, bind) {
                    Ok(scheme) => {
                        let mut name = self.module_path.clone();
                        name.push(bind.name.clone());
                        declarations.bindings.push(CheckedBinding {
                            name: name.join("."),
                            kind: bind.kind,
                            scheme: scheme.clone(),
                            span: bind.span,
                        });
                        scheme
                    }
                    Err(diagnostic) => {
                        declarations.diagnostics.push(diagnostic);
                        Scheme::monomorphic(Type::Error)
                    }
                };
                declarations.declare_value(
                    &bind.name,
                    ValueBinding::Polymorphic {
                        scheme: Rc::new(scheme),
                        defined_at: Some(bind.span),
                    },
                );
            }
            Dec::Type(bind) => {
                let binding = match self.check_type_bind(&declarations.scope, bind) {
                    Ok(binding) => binding,
                    Err(diagnostic) => {
                        declarations.diagnostics.push(diagnostic);
                        poisoned_abbreviation(&bind.params)
                    }
                };
                declarations.declare_type(&bind.name, binding);
            }
            Dec::Local { dec, .. } => {
                let mut local = Declarations {
                    scope: declarations.scope.clone(),
                    exports: Env::default(),
                    bindings: &mut *declarations.bindings,
                    diagnostics: &mut *declarations.diagnostics,
                };
                self.check_dec(dec, &mut local);
                declarations.scope = local.scope;
            }
            Dec::Attr { dec, .. } => self.check_dec(dec, declarations),
            Dec::Module(bind) => {
                self.module_path.push(bind.name.clone());
                let scope = declarations.scope.clone();
                let module = self.eval_functor(
                    &scope,
                    &bind.params,
                    bind.signature.as_ref(),
                    &bind.body,
                    &mut *declarations.bindings,
                    &mut *declarations.diagnostics,
                );
                self.module_path.pop();
                declarations.declare_module(&bind.name, module);
            }
            Dec::ModuleType(bind) => {
                let signature = match self.elaborate_mod_type(&declarations.scope, &bind.definition)
                {
                    Ok(signature) => signature,
                    Err(diagnostic) => {
                        declarations.diagnostics.push(diagnostic);
                        poisoned_signature()
                    }
                };
                let signature = Rc::new(signature);
                declarations.scope = declarations
                    .scope
                    .with_module_type(bind.name.clone(), signature.clone());
                declarations.exports = declarations
                    .exports
                    .with_module_type(bind.name.clone(), signature);
            }
            Dec::Open { module, .. } => {
                let scope = declarations.scope.clone();
                match self.eval_mod_exp(
                    &scope,
                    module,
                    &mut *declarations.bindings,
                    &mut *declarations.diagnostics,
                ) {
                    ModuleValue::Structure(contents) => {
                        declarations.scope = declarations.scope.extended_by(&contents);
                        declarations.exports = declarations.exports.extended_by(&contents);
                    }
                    ModuleValue::Functor(_) => {
                        declarations.diagnostics.push(
                            Diagnostic::error(
                                "cannot open a functor: only structures can be opened",
                            )
                            .with_code("invalid-module")
                            .with_primary(module.span(), "this is a functor"),
                        );
                    }
                    ModuleValue::Poisoned => {
                        // The names it would have brought are unknown: from
                        // now on, names not found are silently erroneous.
                        declarations.scope = declarations.scope.after_opening_poisoned_module();
                        declarations.exports = declarations.exports.after_opening_poisoned_module();
                    }
                }
            }
            Dec::Import { path, span } => {
                // `import "f"` brings the file's bindings into scope without
                // declaring them (as `local open (import "f")`).
                let module = self.import_module(*span, path, declarations.diagnostics);
                match module {
                    ModuleValue::Structure(contents) => {
                        declarations.scope = declarations.scope.extended_by(&contents);
                    }
                    ModuleValue::Poisoned => {
                        declarations.scope = declarations.scope.after_opening_poisoned_module();
                    }
                    ModuleValue::Functor(_) => {}
                }
            }
        }
    }

    /// The module a module expression denotes; failures are reported into
    /// `declarations` and give [`ModuleValue::Poisoned`].
    fn eval_mod_exp(
        &mut self,
        scope: &Env,
        module: &ModExp,
        bindings: &mut Vec<CheckedBinding>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ModuleValue {
        match module {
            ModExp::Var(name) => match self.lookup_module(scope, name) {
                Ok(module) => module,
                Err(diagnostic) => {
                    diagnostics.push(diagnostic);
                    ModuleValue::Poisoned
                }
            },
            ModExp::Struct { decs, .. } => {
                let mut inner = Declarations {
                    scope: scope.clone(),
                    exports: Env::default(),
                    bindings,
                    diagnostics,
                };
                self.check_decs(decs, &mut inner);
                ModuleValue::Structure(Rc::new(inner.exports))
            }
            ModExp::Ascribe {
                module, mod_type, ..
            } => {
                let value = self.eval_mod_exp(scope, module, bindings, diagnostics);
                self.ascribe_checked(scope, value, mod_type, diagnostics)
            }
            ModExp::Lambda {
                param,
                result,
                body,
                ..
            } => self.eval_functor(
                scope,
                std::slice::from_ref(&**param),
                result.as_ref(),
                body,
                bindings,
                diagnostics,
            ),
            ModExp::Apply {
                functor, argument, ..
            } => {
                let functor_value = self.eval_mod_exp(scope, functor, bindings, diagnostics);
                let argument_value = self.eval_mod_exp(scope, argument, bindings, diagnostics);
                self.apply_functor(
                    functor,
                    &functor_value,
                    argument,
                    &argument_value,
                    diagnostics,
                )
            }
            ModExp::Import { path, span } => self.import_module(*span, path, diagnostics),
        }
    }

    /// The module an imported file denotes: the bindings it declares, checked
    /// once (in the built-in environment) however often it is imported.
    fn import_module(
        &mut self,
        span: Span,
        path: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ModuleValue {
        let Some(loader) = self.loader.as_mut() else {
            diagnostics.push(
                Diagnostic::error(format!(
                    "cannot import \"{path}\": no files can be read here"
                ))
                .with_code("import")
                .with_primary(span, "this import")
                .with_note("imports are read by `runestone compile FILE`, relative to FILE"),
            );
            return ModuleValue::Poisoned;
        };
        let (file, program) = match loader.load(span, path) {
            Ok(loaded) => loaded,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                return ModuleValue::Poisoned;
            }
        };
        if let Some(module) = self.imported.get(&file.0) {
            return module.clone();
        }
        if self.importing.contains(&file) {
            diagnostics.push(
                Diagnostic::error(format!(
                    "import cycle: \"{path}\" is already being imported"
                ))
                .with_code("import")
                .with_primary(span, "this import closes a cycle"),
            );
            return ModuleValue::Poisoned;
        }
        self.importing.push(file);
        let saved_path = std::mem::take(&mut self.module_path);
        // Imported files' bindings are not listed with the program's own.
        let mut imported_bindings = Vec::new();
        let mut declarations = Declarations {
            scope: self.initial_env.clone(),
            exports: Env::default(),
            bindings: &mut imported_bindings,
            diagnostics,
        };
        self.check_decs(&program.decs, &mut declarations);
        let module = ModuleValue::Structure(Rc::new(declarations.exports));
        self.module_path = saved_path;
        self.importing.pop();
        self.imported.insert(file.0, module.clone());
        module
    }

    /// `params` (curried) `: result_signature = body`: a functor when there are
    /// parameters, checked once with each parameter bound to its module type.
    fn eval_functor(
        &mut self,
        scope: &Env,
        params: &[ModParam],
        result_signature: Option<&ModTypeExp>,
        body: &ModExp,
        bindings: &mut Vec<CheckedBinding>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ModuleValue {
        let Some((first, rest)) = params.split_first() else {
            let value = self.eval_mod_exp(scope, body, bindings, diagnostics);
            return match result_signature {
                None => value,
                Some(mod_type) => self.ascribe_checked(scope, value, mod_type, diagnostics),
            };
        };
        let signature = match self.elaborate_mod_type(scope, &first.mod_type) {
            Ok(signature) => signature,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                poisoned_signature()
            }
        };
        // ICFP'18 rule 28: a functor's parameter has a non-parameterised
        // module type (F = ∀T.(E, Σ): the parameter is an environment); a
        // functor travels as a component of a structure parameter instead
        // (SPEC_NOTES ICFP18-19). Futhark itself accepts this form.
        if signature.functor.is_some() {
            diagnostics.push(
                Diagnostic::error(format!(
                    "the parameter {} of a functor requires a non-parameterised parameter module type (ICFP'18 rule 28)",
                    first.name
                ))
                .with_code("invalid-module")
                .with_primary(first.mod_type.span(), "this module type is a functor type")
                .with_note(format!(
                    "pass the functor inside a structure: `({}: {{ module F : … }})`, then use `{}.F`",
                    first.name, first.name
                )),
            );
        }
        // Inside the body, the parameter's abstract types read `X.t`.
        let signature = named_after(&signature, std::slice::from_ref(&first.name));
        let parameter = signature.as_module();
        let inner = scope.with_module(first.name.clone(), parameter);
        let watermark = self.generated_abstract_types.len();
        let result = self.eval_functor(&inner, rest, result_signature, body, bindings, diagnostics);
        let generated_abstract_types = if rest.is_empty() {
            self.generated_abstract_types[watermark..].to_vec()
        } else {
            Vec::new()
        };
        ModuleValue::Functor(Rc::new(Functor {
            parameter_signature: signature,
            result,
            result_abstract_types: Vec::new(),
            generated_abstract_types,
        }))
    }

    /// `functor argument`: the argument must match the parameter's module
    /// type; the result is the functor's, with the parameter's abstract types
    /// replaced by what they are in the argument.
    fn apply_functor(
        &mut self,
        functor: &ModExp,
        functor_value: &ModuleValue,
        argument: &ModExp,
        argument_value: &ModuleValue,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ModuleValue {
        let functor_value = match functor_value {
            ModuleValue::Functor(functor_value) => functor_value,
            ModuleValue::Poisoned => return ModuleValue::Poisoned,
            ModuleValue::Structure(_) => {
                diagnostics.push(
                    Diagnostic::error("this module is not a functor: it cannot be applied")
                        .with_code("invalid-module")
                        .with_primary(functor.span(), "a structure, applied to an argument"),
                );
                return ModuleValue::Poisoned;
            }
        };
        if functor_value.parameter_signature.poisoned
            || matches!(argument_value, ModuleValue::Poisoned)
        {
            return ModuleValue::Poisoned;
        }
        match self.match_module(
            argument_value,
            &functor_value.parameter_signature,
            argument.span(),
        ) {
            Ok(instantiation) => {
                let result = functor_value.result.substitute(&instantiation);
                let made_anew = self.make_anew(&functor_value.generated_abstract_types);
                if made_anew.is_empty() {
                    result
                } else {
                    result.substitute(&made_anew)
                }
            }
            Err(mut diagnostic) => {
                diagnostic.message = diagnostic.message.replacen(
                    "the module does not match its module type",
                    "the functor argument does not match the parameter's module type",
                    1,
                );
                for label in &mut diagnostic.labels {
                    if label.primary {
                        label.message = "this argument".to_string();
                    }
                }
                diagnostics.push(diagnostic);
                ModuleValue::Poisoned
            }
        }
    }

    /// Functor application is generative (ICFP'18 rule 17; Futhark): the
    /// abstract types the functor's body makes are made anew for this
    /// application, so two applications' types differ. Returns the renaming
    /// of each to a fresh rigid name.
    fn make_anew(&mut self, generated: &[AbstractType]) -> RigidSubstitution {
        let mut renaming = RigidSubstitution::default();
        for abstract_type in generated {
            // Named after the module being defined (`A.t`), so that messages
            // tell two applications apart.
            let mut qualified = self.module_path.clone();
            qualified.extend(abstract_type.path.iter().cloned());
            let fresh = self.subst.fresh_rigid(qualified.join("."));
            bind_abstract(
                &mut renaming,
                abstract_type,
                renamed(abstract_type, fresh.clone()),
            );
            self.generated_abstract_types.push(AbstractType {
                name: fresh,
                ..abstract_type.clone()
            });
        }
        renaming
    }

    /// `module : mod_type`, reporting failures into `diagnostics`.
    fn ascribe_checked(
        &mut self,
        scope: &Env,
        module: ModuleValue,
        mod_type: &ModTypeExp,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> ModuleValue {
        let signature = match self.elaborate_mod_type(scope, mod_type) {
            Ok(signature) => signature,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                return ModuleValue::Poisoned;
            }
        };
        match self.ascribe(&module, signature, mod_type.span()) {
            Ok(module) => module,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                ModuleValue::Poisoned
            }
        }
    }

    /// The module named by `name` (all of it: qualifiers and last name).
    pub(crate) fn lookup_module(&self, scope: &Env, name: &QualName) -> CheckResult<ModuleValue> {
        let contents = self.lookup_module_path(scope, &name.qualifiers, name.span)?;
        let Some(contents) = contents else {
            return Ok(ModuleValue::Poisoned);
        };
        match contents.modules.get(&name.name) {
            Some(module) => Ok(module.clone()),
            None if name.qualifiers.is_empty() && scope.opened_poisoned_module => {
                Ok(ModuleValue::Poisoned)
            }
            None => Err(unknown_in(
                &name.qualifiers,
                &name.name,
                "module",
                name.span,
            )),
        }
    }

    /// The contents of the module at `path` (`None` for a poisoned module;
    /// the scope itself for an empty path).
    pub(crate) fn lookup_module_path(
        &self,
        scope: &Env,
        path: &[Name],
        span: Span,
    ) -> CheckResult<Option<Rc<Env>>> {
        let mut current = Rc::new(scope.clone());
        for (depth, name) in path.iter().enumerate() {
            let next = match current.modules.get(name) {
                Some(ModuleValue::Structure(contents)) => contents.clone(),
                Some(ModuleValue::Poisoned) => return Ok(None),
                Some(ModuleValue::Functor(_)) => {
                    return Err(Diagnostic::error(format!(
                        "`{}` is a functor: apply it before taking names from it",
                        path[..=depth].join(".")
                    ))
                    .with_code("invalid-module")
                    .with_primary(span, "a name taken from a functor"))
                }
                None if depth == 0 && crate::types::PrimType::from_name(name).is_some() => {
                    return Err(Checker::unsupported(
                        span,
                        &format!("the prelude module `{name}`"),
                    )
                    .with_note("the numeric modules of the prelude (`i32`, `f32`, ...) are not available yet"))
                }
                None if depth == 0 && scope.opened_poisoned_module => return Ok(None),
                None => return Err(unknown_in(&path[..depth], name, "module", span)),
            };
            current = next;
        }
        Ok(Some(current))
    }

    /// `m.(e)`: `e` in the scope extended by `m`'s bindings.
    pub(crate) fn open_in_scope(&self, scope: &Env, module: &QualName) -> CheckResult<Option<Env>> {
        match self.lookup_module(scope, module)? {
            ModuleValue::Structure(contents) => Ok(Some(scope.extended_by(&contents))),
            ModuleValue::Functor(_) => Err(Diagnostic::error(
                "cannot open a functor: only structures can be opened",
            )
            .with_code("invalid-module")
            .with_primary(module.span, "this is a functor")),
            ModuleValue::Poisoned => Ok(None),
        }
    }
}

/// `unknown module `m.n``-style diagnostics.
pub(crate) fn unknown_in(path: &[Name], name: &Name, what: &str, span: Span) -> Diagnostic {
    let (full, place) = if path.is_empty() {
        (name.clone(), "not found in this scope".to_string())
    } else {
        (
            format!("{}.{name}", path.join(".")),
            format!("module `{}` has no {what} `{name}`", path.join(".")),
        )
    };
    Diagnostic::error(format!("unknown {what} `{full}`"))
        .with_code("unknown-name")
        .with_primary(span, place)
}

/// The binding of a type whose definition failed: its declared arity, and
/// [`Type::Error`] as its meaning, so that uses are silent.
fn poisoned_abbreviation(params: &[TypeParam]) -> TypeBinding {
    let params = params
        .iter()
        .map(|param| match param {
            TypeParam::Size { name, .. } => AbbreviationParam::Size(RigidName {
                id: 0,
                name: name.clone(),
            }),
            TypeParam::Type {
                name, liftedness, ..
            } => AbbreviationParam::Type {
                name: RigidName {
                    id: 0,
                    name: name.clone(),
                },
                liftedness: *liftedness,
            },
        })
        .collect();
    TypeBinding::Abbreviation {
        liftedness: Liftedness::Lifted,
        params: Rc::new(params),
        body: Type::Error,
    }
}
