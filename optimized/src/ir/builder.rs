//! A small builder for IR programs in A-normal form: fresh names, statements
//! appended to the current body, nested bodies and lambdas. Used by tests and
//! benchmarks to write IR by hand; lowering (`crate::lower`) builds its own
//! blocks and does not use it.
//!
//! ```
//! use optimized::ir::builder::{Builder, array, prim};
//! use optimized::ir::{BinOp, Exp, PrimType, Soac, SubExp};
//! let mut b = Builder::new();
//! let f = b.function("inc", &[("n", prim(PrimType::I64))], |b, params| {
//!     let n = SubExp::Var(params[0].clone());
//!     let xs = b.bind("xs", array(PrimType::I64, [n.clone()]), b.iota(n.clone()));
//!     vec![xs]
//! });
//! assert_eq!(f.params.len(), 1);
//! ```

use super::syntax::*;

/// `t` as a type.
pub fn prim(t: PrimType) -> Type {
    Type::Prim(t)
}

/// `[dims]t`.
pub fn array(t: PrimType, dims: impl IntoIterator<Item = SubExp>) -> Type {
    Type::Array {
        element: t,
        shape: dims.into_iter().collect(),
    }
}

/// The `i64` constant `n`.
pub fn i64c(n: i64) -> SubExp {
    SubExp::i64(n)
}

/// A constant.
pub fn constant(v: impl Into<PrimValue>) -> SubExp {
    SubExp::Constant(v.into())
}

/// Builds statements into nested bodies; names come from one source.
pub struct Builder {
    pub names: NameSource,
    /// The statements of the bodies being built, innermost last.
    bodies: Vec<Vec<Statement>>,
    /// The span given to new statements.
    pub span: Span,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            names: NameSource::default(),
            bodies: vec![Vec::new()],
            span: Span::default(),
        }
    }

    /// A fresh name.
    pub fn name(&mut self, base: &str) -> VName {
        self.names.fresh(base)
    }

    /// A fresh parameter.
    pub fn param(&mut self, base: &str, ty: Type) -> Param {
        Param {
            name: self.name(base),
            ty,
        }
    }

    /// Appends `let {pattern} = exp`.
    pub fn statement(&mut self, pattern: Vec<PatElem>, expression: Exp) {
        let span = self.span;
        self.bodies
            .last_mut()
            .expect("a body is open")
            .push(Statement {
                pattern,
                expression,
                span,
            });
    }

    /// Binds the one result of `exp` to a fresh name of type `ty`.
    pub fn bind(&mut self, base: &str, ty: Type, exp: Exp) -> SubExp {
        let p = self.param(base, ty);
        let v = p.name.clone();
        self.statement(vec![p], exp);
        SubExp::Var(v)
    }

    /// Binds the results of `exp` to fresh names; `types` may refer to
    /// earlier names of the same pattern through `make_types`, which receives
    /// the fresh names.
    pub fn bind_many(
        &mut self,
        bases: &[&str],
        make_types: impl FnOnce(&[VName]) -> Vec<Type>,
        exp: Exp,
    ) -> Vec<VName> {
        let names: Vec<VName> = bases.iter().map(|b| self.name(b)).collect();
        let types = make_types(&names);
        let pattern = names
            .iter()
            .cloned()
            .zip(types)
            .map(|(name, ty)| Param { name, ty })
            .collect();
        self.statement(pattern, exp);
        names
    }

    /// A nested body: `f` appends statements and returns the results.
    pub fn body(&mut self, f: impl FnOnce(&mut Builder) -> Vec<SubExp>) -> Body {
        self.bodies.push(Vec::new());
        let result = f(self);
        let statements = self.bodies.pop().expect("the body pushed above");
        Body { statements, result }
    }

    /// A lambda with fresh parameters of `param_types`.
    pub fn lambda(
        &mut self,
        param_types: &[Type],
        return_types: &[Type],
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<SubExp>,
    ) -> Lambda {
        let params: Vec<Param> = param_types
            .iter()
            .map(|t| self.param("p", t.clone()))
            .collect();
        let names: Vec<VName> = params.iter().map(|p| p.name.clone()).collect();
        let body = self.body(|b| f(b, &names));
        Lambda {
            params,
            body,
            return_types: return_types.to_vec(),
        }
    }

    /// A binary operator at type `t` as a lambda `(a, b) -> a op b`.
    pub fn binop_lambda(&mut self, op: BinOp, t: PrimType) -> Lambda {
        self.lambda(&[prim(t), prim(t)], &[prim(t)], |b, p| {
            vec![b.bind(
                "r",
                prim(t),
                Exp::BinOp {
                    op,
                    ty: t,
                    left: SubExp::Var(p[0].clone()),
                    right: SubExp::Var(p[1].clone()),
                },
            )]
        })
    }

    /// A function whose return types are those of its results, computed
    /// from the parameters and the top-level patterns; a dimension that is
    /// another result becomes existential (so return the sizes of arrays
    /// whose sizes are bound inside the body).
    pub fn function(
        &mut self,
        name: &str,
        params: &[(&str, Type)],
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<SubExp>,
    ) -> Function {
        let params: Vec<Param> = params
            .iter()
            .map(|(n, t)| self.param(n, t.clone()))
            .collect();
        self.function_of_params(name, params, f)
    }

    /// Like [`Self::function`], with parameters made beforehand (so that
    /// their types can refer to one another: `n: i64, xs: [n]f32`).
    pub fn function_of_params(
        &mut self,
        name: &str,
        params: Vec<Param>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<SubExp>,
    ) -> Function {
        let names: Vec<VName> = params.iter().map(|p| p.name.clone()).collect();
        let body = self.body(|b| f(b, &names));
        let result_types: Vec<Type> = body
            .result
            .iter()
            .map(|r| result_type(r, &params, &body))
            .collect();
        // A dimension naming another result becomes existential.
        let return_types = result_types
            .iter()
            .map(|t| match t {
                Type::Prim(p) => ExtType::Prim(*p),
                Type::Array { element, shape } => ExtType::Array {
                    element: *element,
                    shape: shape
                        .iter()
                        .map(|d| {
                            match body
                                .result
                                .iter()
                                .position(|r| r == d && d.as_var().is_some())
                            {
                                Some(k) => ExtDim::Existential(k),
                                None => ExtDim::Free(d.clone()),
                            }
                        })
                        .collect(),
                },
            })
            .collect();
        Function {
            name: FunName(name.to_string()),
            params,
            return_types,
            body,
            span: self.span,
        }
    }

    /// A function with explicit (possibly existential) return types.
    pub fn function_with_returns(
        &mut self,
        name: &str,
        params: &[(&str, Type)],
        return_types: Vec<ExtType>,
        f: impl FnOnce(&mut Builder, &[VName]) -> Vec<SubExp>,
    ) -> Function {
        let params: Vec<Param> = params
            .iter()
            .map(|(n, t)| self.param(n, t.clone()))
            .collect();
        let names: Vec<VName> = params.iter().map(|p| p.name.clone()).collect();
        let body = self.body(|b| f(b, &names));
        Function {
            name: FunName(name.to_string()),
            params,
            return_types,
            body,
            span: self.span,
        }
    }

    /// `iota n` of `i64`s from 0 by 1.
    pub fn iota(&self, n: SubExp) -> Exp {
        Exp::Iota {
            length: n,
            start: i64c(0),
            step: i64c(1),
            element: PrimType::I64,
        }
    }
}

/// The type of a function result: a parameter's, a top-level pattern
/// element's, or a constant's.
fn result_type(r: &SubExp, params: &[Param], body: &Body) -> Type {
    match r {
        SubExp::Constant(c) => Type::Prim(c.prim_type()),
        SubExp::Var(v) => params
            .iter()
            .chain(body.statements.iter().flat_map(|s| &s.pattern))
            .find(|p| &p.name == v)
            .map(|p| p.ty.clone())
            .unwrap_or(Type::Prim(PrimType::Bool)),
    }
}
