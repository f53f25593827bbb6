//! Declarations and module expressions (ICFP'18 §5.3, rules 54–65):
//! structures, aliases, ascription (hiding names only), `open`, `local`,
//! `import`, functor closures and functor application, memoised on the
//! identities of the functor and of the argument.

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{
    Dec, ModExp, ModTypeExp, ModuleBind, QualName, Spec, TypeBind, ValueBind, ValueBindKind,
};
use std::rc::Rc;

use super::env::{Entity, Env, FunctorClosure, Module, ModuleKind, Shape};
use super::{not_checked, Interpreter, Namespace};

type Result<T> = std::result::Result<T, Diagnostic>;

impl Interpreter<'_> {
    /// Declarations in sequence: each extends `scope` (what later ones see)
    /// and `exports` (what the enclosing structure declares). `main_file`:
    /// the top level of the program's own file, where `def main` is an
    /// entry point.
    pub(crate) fn interpret_decs(
        &mut self,
        decs: &[Dec],
        scope: &mut Env,
        exports: &mut Env,
        main_file: bool,
    ) -> Result<()> {
        for dec in decs {
            self.interpret_dec(dec, scope, exports, main_file)?;
        }
        Ok(())
    }

    fn interpret_dec(
        &mut self,
        dec: &Dec,
        scope: &mut Env,
        exports: &mut Env,
        main_file: bool,
    ) -> Result<()> {
        match dec {
            Dec::Value(bind) => {
                let symbol = self.value_bind(bind, scope, main_file)?;
                scope
                    .values
                    .insert(bind.name.clone(), Entity::Global(symbol));
                exports
                    .values
                    .insert(bind.name.clone(), Entity::Global(symbol));
            }
            Dec::Type(bind) => {
                let symbol = self.type_bind(bind, scope)?;
                scope
                    .types
                    .insert(bind.name.clone(), Entity::Global(symbol));
                exports
                    .types
                    .insert(bind.name.clone(), Entity::Global(symbol));
            }
            Dec::Module(bind) => {
                let module = self.module_bind(bind, scope)?;
                scope.modules.insert(bind.name.clone(), module.clone());
                exports.modules.insert(bind.name.clone(), module);
            }
            Dec::ModuleType(bind) => {
                let shape = self.shape(&bind.definition, scope)?;
                scope.module_types.insert(bind.name.clone(), shape.clone());
                exports.module_types.insert(bind.name.clone(), shape);
            }
            // ICFP'18: `open` declares the structure's bindings.
            Dec::Open { module, span } => {
                let module = self.mod_exp(module, scope)?;
                let ModuleKind::Structure(contents) = module.kind.as_ref() else {
                    return Err(not_checked(*span, "`open` of a functor"));
                };
                *scope = scope.opened(contents);
                *exports = exports.opened(contents);
            }
            // `import "f"` as a declaration: in scope, not re-declared.
            Dec::Import { path, span } => {
                let module = self.import(path, *span)?;
                if let ModuleKind::Structure(contents) = module.kind.as_ref() {
                    *scope = scope.opened(contents);
                }
            }
            Dec::Local { dec, .. } => {
                let mut hidden = Env::default();
                self.interpret_dec(dec, scope, &mut hidden, main_file)?;
            }
            // Attributes are parsed and never interpreted (DESIGN.md).
            Dec::Attr { dec, .. } => self.interpret_dec(dec, scope, exports, main_file)?,
        }
        Ok(())
    }

    /// `def`/`entry`: one output declaration.
    fn value_bind(
        &mut self,
        bind: &ValueBind,
        scope: &Env,
        main_file: bool,
    ) -> Result<super::env::SymbolId> {
        let entry_point = bind.kind == ValueBindKind::Entry || (main_file && bind.name == "main");
        let symbol = self.new_symbol(&bind.name, Namespace::Value, entry_point);
        let dec = self.translate_value_bind(bind, scope, symbol)?;
        self.emit(symbol, Dec::Value(dec));
        Ok(symbol)
    }

    /// `type`: one output abbreviation.
    fn type_bind(&mut self, bind: &TypeBind, scope: &Env) -> Result<super::env::SymbolId> {
        let symbol = self.new_symbol(&bind.name, Namespace::Type, false);
        let dec = self.translate_type_bind(bind, scope, symbol)?;
        self.emit(symbol, Dec::Type(dec));
        Ok(symbol)
    }

    /// `module m params : mt = me`: a functor closure when there are
    /// parameters, else the body's value seen through `mt`.
    fn module_bind(&mut self, bind: &ModuleBind, scope: &Env) -> Result<Module> {
        if bind.params.is_empty() {
            let module = self.mod_exp(&bind.body, scope)?;
            return match &bind.signature {
                Some(signature) => {
                    let shape = self.shape(signature, scope)?;
                    Ok(self.filter(&module, &shape))
                }
                None => Ok(module),
            };
        }
        let closure = FunctorClosure {
            params: bind.params.clone().into(),
            position: 0,
            signature: bind.signature.clone().map(Rc::new),
            body: Rc::new(bind.body.clone()),
            env: scope.clone(),
        };
        Ok(self.new_module(ModuleKind::Functor(closure)))
    }

    pub(crate) fn new_module(&mut self, kind: ModuleKind) -> Module {
        Module {
            id: self.fresh_module_id(),
            kind: Rc::new(kind),
        }
    }

    /// A module expression's value (ICFP'18 rules 57–62).
    pub(crate) fn mod_exp(&mut self, exp: &ModExp, scope: &Env) -> Result<Module> {
        spec::recursion::with_stack(|| match exp {
            ModExp::Var(name) => self.lookup_module(scope, name),
            ModExp::Struct { decs, .. } => {
                let mut inner = scope.clone();
                let mut exports = Env::default();
                self.interpret_decs(decs, &mut inner, &mut exports, false)?;
                Ok(self.new_module(ModuleKind::Structure(exports)))
            }
            ModExp::Ascribe {
                module, mod_type, ..
            } => {
                let module = self.mod_exp(module, scope)?;
                let shape = self.shape(mod_type, scope)?;
                Ok(self.filter(&module, &shape))
            }
            ModExp::Lambda {
                param,
                result,
                body,
                ..
            } => {
                let closure = FunctorClosure {
                    params: vec![param.as_ref().clone()].into(),
                    position: 0,
                    signature: result.clone().map(Rc::new),
                    body: Rc::new(body.as_ref().clone()),
                    env: scope.clone(),
                };
                Ok(self.new_module(ModuleKind::Functor(closure)))
            }
            ModExp::Apply {
                functor,
                argument,
                span,
            } => {
                let functor = self.mod_exp(functor, scope)?;
                let argument = self.mod_exp(argument, scope)?;
                self.statistics.functor_applications += 1;
                if let Some(result) = self.memo.get(&(functor.id, argument.id)) {
                    self.statistics.reused_applications += 1;
                    return Ok(result.clone());
                }
                self.apply(&functor, &argument, *span)
            }
            ModExp::Import { path, span } => self.import(path, *span),
        })
    }

    /// Applies `functor` to `argument` (ICFP'18 rule 62), through the memo:
    /// the body is interpreted once per (functor, argument) pair.
    fn apply(&mut self, functor: &Module, argument: &Module, span: Span) -> Result<Module> {
        if let Some(result) = self.memo.get(&(functor.id, argument.id)) {
            return Ok(result.clone());
        }
        let result = match functor.kind.as_ref() {
            ModuleKind::Structure(_) => {
                return Err(not_checked(span, "a structure applied as a functor"))
            }
            ModuleKind::FilteredFunctor {
                functor: inner,
                result,
            } => {
                let applied = self.apply(inner, argument, span)?;
                self.filter(&applied, result)
            }
            ModuleKind::Functor(closure) => {
                let param = &closure.params[closure.position];
                let param_shape = self.shape(&param.mod_type, &closure.env)?;
                let argument = self.filter(argument, &param_shape);
                let mut env = closure.env.clone();
                env.modules.insert(param.name.clone(), argument);
                if closure.position + 1 < closure.params.len() {
                    let partial = FunctorClosure {
                        params: closure.params.clone(),
                        position: closure.position + 1,
                        signature: closure.signature.clone(),
                        body: closure.body.clone(),
                        env,
                    };
                    self.new_module(ModuleKind::Functor(partial))
                } else {
                    let body = self.mod_exp(&closure.body, &env)?;
                    match &closure.signature {
                        Some(signature) => {
                            let shape = self.shape(signature, &env)?;
                            self.filter(&body, &shape)
                        }
                        None => body,
                    }
                }
            }
        };
        self.memo.insert((functor.id, argument.id), result.clone());
        Ok(result)
    }

    /// `module` seen through a module type of shape `shape`: what the shape
    /// does not name is hidden (a new module identity).
    pub(crate) fn filter(&mut self, module: &Module, shape: &Rc<Shape>) -> Module {
        match (module.kind.as_ref(), shape.as_ref()) {
            (_, Shape::Transparent) => module.clone(),
            (
                ModuleKind::Structure(contents),
                Shape::Structure {
                    values,
                    types,
                    modules,
                },
            ) => {
                let mut visible = Env::default();
                for name in values {
                    if let Some(entity) = contents.values.get(name) {
                        visible.values.insert(name.clone(), *entity);
                    }
                }
                for name in types {
                    if let Some(entity) = contents.types.get(name) {
                        visible.types.insert(name.clone(), *entity);
                    }
                }
                for (name, inner_shape) in modules {
                    if let Some(inner) = contents.modules.get(name) {
                        let inner = self.filter(inner, inner_shape);
                        visible.modules.insert(name.clone(), inner);
                    }
                }
                self.new_module(ModuleKind::Structure(visible))
            }
            (
                ModuleKind::Functor(_) | ModuleKind::FilteredFunctor { .. },
                Shape::Functor { result },
            ) => self.new_module(ModuleKind::FilteredFunctor {
                functor: module.clone(),
                result: result.clone(),
            }),
            // Kinds that do not match were rejected by the type checker.
            _ => module.clone(),
        }
    }

    /// The shape of a module type: the names it specifies.
    pub(crate) fn shape(&mut self, mod_type: &ModTypeExp, scope: &Env) -> Result<Rc<Shape>> {
        spec::recursion::with_stack(|| match mod_type {
            ModTypeExp::Var(name) => {
                let contents = match self.module_path(scope, &name.qualifiers, name.span)? {
                    Some(contents) => contents,
                    None => return Ok(Rc::new(Shape::Transparent)),
                };
                Ok(contents
                    .module_types
                    .get(&name.name)
                    .cloned()
                    .unwrap_or_else(|| Rc::new(Shape::Transparent)))
            }
            ModTypeExp::Signature { specs, .. } => {
                let mut values = imbl::HashSet::new();
                let mut types = imbl::HashSet::new();
                let mut modules = imbl::HashMap::new();
                for spec in specs {
                    match spec {
                        Spec::Val { name, .. } => {
                            values.insert(name.clone());
                        }
                        Spec::Type { name, .. } => {
                            types.insert(name.clone());
                        }
                        Spec::Module { name, mod_type, .. } => {
                            let inner = self.shape(mod_type, scope)?;
                            modules.insert(name.clone(), inner);
                        }
                        Spec::Include { mod_type, .. } => {
                            let included = self.shape(mod_type, scope)?;
                            match included.as_ref() {
                                Shape::Structure {
                                    values: more_values,
                                    types: more_types,
                                    modules: more_modules,
                                } => {
                                    values = values.union(more_values.clone());
                                    types = types.union(more_types.clone());
                                    modules = more_modules.clone().union(modules);
                                }
                                // Including an undefined module type: nothing
                                // can be hidden.
                                _ => return Ok(Rc::new(Shape::Transparent)),
                            }
                        }
                    }
                }
                Ok(Rc::new(Shape::Structure {
                    values,
                    types,
                    modules,
                }))
            }
            ModTypeExp::With { mod_type, .. } => self.shape(mod_type, scope),
            ModTypeExp::Arrow { to, .. } => {
                let result = self.shape(to, scope)?;
                Ok(Rc::new(Shape::Functor { result }))
            }
        })
    }

    /// The module a qualified name denotes.
    fn lookup_module(&mut self, scope: &Env, name: &QualName) -> Result<Module> {
        let contents = self
            .module_path(scope, &name.qualifiers, name.span)?
            .ok_or_else(|| unknown_module(name))?;
        contents
            .modules
            .get(&name.name)
            .cloned()
            .ok_or_else(|| unknown_module(name))
    }

    /// The environment reached by following the module names `path` from
    /// `scope` (`scope` itself for an empty path); `None` when the first
    /// name is no module of the program or the prelude files (which a
    /// checked program never names: the numeric modules `f32` & co. are
    /// the prelude's).
    pub(crate) fn module_path(
        &mut self,
        scope: &Env,
        path: &[String],
        span: Span,
    ) -> Result<Option<Env>> {
        let Some((first, rest)) = path.split_first() else {
            return Ok(Some(scope.clone()));
        };
        let Some(mut module) = scope.modules.get(first).cloned() else {
            return Ok(None);
        };
        for name in rest {
            let ModuleKind::Structure(contents) = module.kind.as_ref() else {
                return Err(not_checked(
                    span,
                    format!("`{name}` looked up in a functor"),
                ));
            };
            module = contents
                .modules
                .get(name)
                .cloned()
                .ok_or_else(|| not_checked(span, format!("unknown module `{name}`")))?;
        }
        match module.kind.as_ref() {
            ModuleKind::Structure(contents) => Ok(Some(contents.clone())),
            _ => Err(not_checked(span, "a name looked up in a functor")),
        }
    }

    /// `import "path"`: the file's structure, interpreted once, in the
    /// environment every file starts in.
    fn import(&mut self, path: &str, span: Span) -> Result<Module> {
        let Some(loader) = self.loader.as_mut() else {
            return Err(
                Diagnostic::error(format!("cannot import \"{path}\": no files here"))
                    .with_code("import")
                    .with_primary(span, "this import"),
            );
        };
        let (file, program) = loader.load(span, path)?;
        if let Some(module) = self.imported.get(&file.0) {
            return Ok(module.clone());
        }
        if self.importing.contains(&file) {
            return Err(
                Diagnostic::error(format!("import cycle through \"{path}\""))
                    .with_code("import")
                    .with_primary(span, "this import"),
            );
        }
        self.importing.push(file);
        let mut scope = self.initial_env.clone();
        let mut exports = Env::default();
        let result = self.interpret_decs(&program.decs, &mut scope, &mut exports, false);
        self.importing.pop();
        result?;
        let module = self.new_module(ModuleKind::Structure(exports));
        self.imported.insert(file.0, module.clone());
        Ok(module)
    }
}

fn unknown_module(name: &QualName) -> Diagnostic {
    let mut text = name.qualifiers.join(".");
    if !text.is_empty() {
        text.push('.');
    }
    text.push_str(&name.name);
    not_checked(
        name.span,
        format!("module `{text}` is not defined in the program or the prelude files"),
    )
}
