//! How the CPU backend runs the segmented IR ([`crate::ir::segmented`]):
//! every segmented operation becomes one parallel SOAC over its whole index
//! space, which [`super::soac`] then runs in chunks with rayon.
//!
//! - `segmap` over `[n₁]…[nₖ]` is one `map` over the `n₁·…·nₖ` points of
//!   the space. A *direct row* of its body — `x = a[gtid₁, …, gtidₖ]`, all
//!   the indices in order, of an array `a : [n₁]…[nₖ]t` — becomes an input
//!   of that `map`: `a` reshaped to `[n₁·…·nₖ]t` (which shares its
//!   elements), so the `map`'s lambda reads its element as any `map` does
//!   and keeps the native and vectorised paths. Where the body uses an
//!   index otherwise, the `map` also takes an `iota` of the points, and the
//!   lambda recovers the indices from its flat, row-major position. Each
//!   result is reshaped to `[n₁]…[nₖ]t`.
//! - `segred` over one dimension is a `redomap` whose map lambda is the
//!   body (direct rows as its inputs, as above); over `k > 1` dimensions it
//!   is a `segmap` over the `k − 1` segment dimensions whose body is that
//!   `redomap` over the innermost one (by index).
//! - `segscan` likewise, with `scanomap`.
//!
//! The result is SOAC IR again (checked by [`crate::ir::check`] before it
//! is compiled): the expansion keeps the names of the body and the
//! operator, and takes every name it adds from a [`NameSource`] fresh for
//! the program.

use std::collections::{HashMap, HashSet};

use crate::ir::visit::{for_each_binder_in_body, for_each_use_in_body};
use crate::ir::{
    BinOp, Body, Exp, Function, Lambda, NameSource, Param, PrimType, Program, SegDim, SegOp, Soac,
    Span, Statement, SubExp, Type, VName,
};

/// `program` with every segmented operation expanded into SOACs.
pub fn expand_segmented_operations(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    for function in &mut program.functions {
        let mut expander = Expander {
            names: &mut names,
            types: binding_types(function),
        };
        expander.body(&mut function.body);
    }
    program
}

/// The type of every name `function` binds (parameters, pattern elements,
/// lambda and loop parameters).
fn binding_types(function: &Function) -> HashMap<VName, Type> {
    fn collect(body: &Body, types: &mut HashMap<VName, Type>) {
        for statement in &body.statements {
            let loop_params = match &statement.expression {
                Exp::Loop { params, .. } => params.iter().map(|(p, _)| p).collect(),
                _ => Vec::new(),
            };
            let lambda_params = statement
                .expression
                .lambdas()
                .into_iter()
                .flat_map(|l| &l.params);
            for p in statement
                .pattern
                .iter()
                .chain(loop_params)
                .chain(lambda_params)
            {
                types.insert(p.name.clone(), p.ty.clone());
            }
            for lambda in statement.expression.lambdas() {
                collect(&lambda.body, types);
            }
            for inner in statement.expression.bodies() {
                collect(inner, types);
            }
        }
    }
    let mut types: HashMap<VName, Type> = function
        .params
        .iter()
        .map(|p| (p.name.clone(), p.ty.clone()))
        .collect();
    collect(&function.body, &mut types);
    types
}

fn i64_type() -> Type {
    Type::Prim(PrimType::I64)
}

fn statement(pattern: Vec<Param>, expression: Exp, span: Span) -> Statement {
    Statement {
        pattern,
        expression,
        span,
    }
}

#[derive(Clone, Copy)]
enum Combine {
    Reduce,
    Scan,
}

/// The inputs of the SOAC a body becomes: its direct rows' arrays (made
/// to have the flat outer size) and parameters, and whether the body still
/// needs the point's position.
struct Inputs {
    arrays: Vec<VName>,
    params: Vec<Param>,
    needs_position: bool,
}

struct Expander<'n> {
    names: &'n mut NameSource,
    types: HashMap<VName, Type>,
}

impl Expander<'_> {
    fn body(&mut self, body: &mut Body) {
        let statements = std::mem::take(&mut body.statements);
        for mut statement in statements {
            for inner in crate::passes::traverse::nested_bodies_mut(&mut statement.expression) {
                self.body(inner);
            }
            match statement.expression {
                Exp::Seg(op) => {
                    let expanded = self.expand(op, statement.pattern, statement.span);
                    body.statements.extend(expanded);
                }
                _ => body.statements.push(statement),
            }
        }
    }

    fn bind(&mut self, base: &str, ty: Type) -> Param {
        let name = self.names.fresh(base);
        self.types.insert(name.clone(), ty.clone());
        Param { name, ty }
    }

    /// `let {name: [length]i64} = iota length`.
    fn iota(&mut self, length: &SubExp, span: Span) -> (VName, Statement) {
        let param = self.bind("seg_iota", i64_type().array_of(length.clone()));
        let exp = Exp::Iota {
            length: length.clone(),
            start: SubExp::i64(0),
            step: SubExp::i64(1),
            element: PrimType::I64,
        };
        (param.name.clone(), statement(vec![param], exp, span))
    }

    /// The statements that compute `pattern` from `op`.
    fn expand(&mut self, op: SegOp, pattern: Vec<Param>, span: Span) -> Vec<Statement> {
        // What a `segred` or `segscan` combines with (unused for a `segmap`).
        let combine = if matches!(op, SegOp::Scan { .. }) {
            Combine::Scan
        } else {
            Combine::Reduce
        };
        match op {
            SegOp::Map {
                space,
                body,
                return_types,
            } => self.map(space.dims, body, return_types, pattern, span),
            SegOp::Red {
                mut space,
                body,
                operator,
                neutral,
            }
            | SegOp::Scan {
                mut space,
                body,
                operator,
                neutral,
            } => {
                let inner = space
                    .dims
                    .pop()
                    .expect("the checker rejects an empty space");
                let combined = (operator, neutral, combine);
                self.combine_innermost(space.dims, inner, body, combined, pattern, span)
            }
        }
    }

    /// Takes the direct rows out of `body` (over `dims`, flattened to
    /// `total` points) and returns the SOAC inputs they become, with the
    /// reshapes they need pushed onto `statements`.
    fn direct_inputs(
        &mut self,
        dims: &[SegDim],
        total: &SubExp,
        body: &mut Body,
        statements: &mut Vec<Statement>,
        span: Span,
    ) -> Inputs {
        let indices: Vec<SubExp> = dims.iter().map(|d| SubExp::Var(d.index.clone())).collect();
        let sizes: Vec<SubExp> = dims.iter().map(|d| d.size.clone()).collect();
        let mut inputs = Inputs {
            arrays: Vec::new(),
            params: Vec::new(),
            needs_position: false,
        };
        let mut bound_inside = HashSet::new();
        for_each_binder_in_body(body, |name| {
            bound_inside.insert(name.clone());
        });
        let mut kept = Vec::new();
        for row in std::mem::take(&mut body.statements) {
            let direct = match (&row.expression, row.pattern.as_slice()) {
                (Exp::Index { array, indices: at }, [param])
                    if *at == indices && !bound_inside.contains(array) =>
                {
                    self.types
                        .get(array)
                        .filter(|ty| ty.shape().starts_with(&sizes))
                        .map(|ty| (array.clone(), ty.clone(), param.clone()))
                }
                _ => None,
            };
            let Some((array, ty, param)) = direct else {
                kept.push(row);
                continue;
            };
            let flat = if dims.len() == 1 {
                array
            } else {
                let shape: Vec<SubExp> = std::iter::once(total.clone())
                    .chain(ty.shape()[dims.len()..].iter().cloned())
                    .collect();
                let flat_type = Type::Array {
                    element: ty.element(),
                    shape: shape.clone(),
                };
                let flat = self.bind("seg_rows", flat_type);
                let reshape = Exp::Reshape { shape, array };
                statements.push(statement(vec![flat.clone()], reshape, span));
                flat.name
            };
            inputs.arrays.push(flat);
            inputs.params.push(param);
        }
        body.statements = kept;
        let index_names: HashSet<&VName> = dims.iter().map(|d| &d.index).collect();
        for_each_use_in_body(body, |name| {
            inputs.needs_position |= index_names.contains(name);
        });
        inputs.needs_position |= inputs.arrays.is_empty();
        inputs
    }

    /// A reduction or scan along `inner` in every segment of `outer`: the
    /// `redomap`/`scanomap` over `inner` with `body` as its map lambda, in
    /// a `segmap` over `outer` when there are segments.
    fn combine_innermost(
        &mut self,
        outer: Vec<SegDim>,
        inner: SegDim,
        mut body: Body,
        (operator, neutral, combine): (Lambda, Vec<SubExp>, Combine),
        pattern: Vec<Param>,
        span: Span,
    ) -> Vec<Statement> {
        let mut statements = Vec::new();
        let element_types = operator.return_types.clone();
        let dims = [inner.clone()];
        // Direct rows only without segments: inside a segment, the row's
        // array is not indexed by the innermost index alone.
        let inputs = if outer.is_empty() {
            self.direct_inputs(&dims, &inner.size, &mut body, &mut statements, span)
        } else {
            Inputs {
                arrays: Vec::new(),
                params: Vec::new(),
                needs_position: true,
            }
        };
        let mut segment_statements = Vec::new();
        let (mut arrays, mut params) = (Vec::new(), Vec::new());
        if inputs.needs_position {
            let (indices, iota_statement) = self.iota(&inner.size, span);
            segment_statements.push(iota_statement);
            arrays.push(indices);
            params.push(Param {
                name: inner.index,
                ty: i64_type(),
            });
        }
        arrays.extend(inputs.arrays);
        params.extend(inputs.params);
        let map_lambda = Lambda {
            params,
            body,
            return_types: element_types.clone(),
        };
        let width = inner.size.clone();
        let soac = match combine {
            Combine::Reduce => Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda: operator,
                neutral,
                arrays,
            },
            Combine::Scan => Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda: operator,
                neutral,
                arrays,
            },
        };
        if outer.is_empty() {
            statements.extend(segment_statements);
            statements.push(statement(pattern, Exp::Soac(soac), span));
            return statements;
        }
        // One segment's results: scalars (reduce) or rows `[inner]t` (scan).
        let segment_types: Vec<Type> = match combine {
            Combine::Reduce => element_types,
            Combine::Scan => element_types
                .into_iter()
                .map(|t| t.array_of(inner.size.clone()))
                .collect(),
        };
        let segment_results: Vec<Param> = segment_types
            .iter()
            .map(|ty| self.bind("segment", ty.clone()))
            .collect();
        let result = segment_results
            .iter()
            .map(|p| SubExp::Var(p.name.clone()))
            .collect();
        segment_statements.push(statement(segment_results, Exp::Soac(soac), span));
        let segment_body = Body {
            statements: segment_statements,
            result,
        };
        statements.extend(self.map(outer, segment_body, segment_types, pattern, span));
        statements
    }

    /// A `segmap` as one `map` over its flattened space.
    fn map(
        &mut self,
        dims: Vec<SegDim>,
        mut body: Body,
        return_types: Vec<Type>,
        pattern: Vec<Param>,
        span: Span,
    ) -> Vec<Statement> {
        let mut statements = Vec::new();
        // The number of points, `n₁ · … · nₖ`.
        let mut total = dims[0].size.clone();
        for dim in &dims[1..] {
            let product = self.bind("seg_points", i64_type());
            statements.push(statement(
                vec![product.clone()],
                Exp::BinOp {
                    op: BinOp::Mul,
                    ty: PrimType::I64,
                    left: total,
                    right: dim.size.clone(),
                },
                span,
            ));
            total = SubExp::Var(product.name);
        }
        let inputs = self.direct_inputs(&dims, &total, &mut body, &mut statements, span);
        let (mut arrays, mut params) = (Vec::new(), Vec::new());
        if inputs.needs_position {
            let (indices, iota_statement) = self.iota(&total, span);
            statements.push(iota_statement);
            arrays.push(indices);
            if let [dim] = dims.as_slice() {
                params.push(Param {
                    name: dim.index.clone(),
                    ty: i64_type(),
                });
            } else {
                let position = self.bind("seg_position", i64_type());
                let mut index_statements = self.indices_of(&position.name, &dims, span);
                index_statements.append(&mut body.statements);
                body.statements = index_statements;
                params.push(position);
            }
        }
        arrays.extend(inputs.arrays);
        params.extend(inputs.params);
        let lambda = Lambda {
            params,
            body,
            return_types: return_types.clone(),
        };
        if dims.len() == 1 {
            let map = Soac::Map {
                width: total,
                lambda,
                arrays,
            };
            statements.push(statement(pattern, Exp::Soac(map), span));
            return statements;
        }
        let flat: Vec<Param> = return_types
            .iter()
            .map(|ty| self.bind("seg_flat", ty.clone().array_of(total.clone())))
            .collect();
        let map = Soac::Map {
            width: total,
            lambda,
            arrays,
        };
        statements.push(statement(flat.clone(), Exp::Soac(map), span));
        for (flat, target) in flat.into_iter().zip(pattern) {
            let shape = target.ty.shape().to_vec();
            let reshape = Exp::Reshape {
                shape,
                array: flat.name,
            };
            statements.push(statement(vec![target], reshape, span));
        }
        statements
    }

    /// The statements binding each index of `dims` from the row-major
    /// `position`: the innermost is the remainder by the innermost size, and
    /// so on outwards. They only run where every size is positive (there is
    /// no point otherwise), so no division is by zero.
    fn indices_of(&mut self, position: &VName, dims: &[SegDim], span: Span) -> Vec<Statement> {
        let mut statements = Vec::new();
        let mut rest = SubExp::Var(position.clone());
        for (k, dim) in dims.iter().enumerate().rev() {
            let binder = Param {
                name: dim.index.clone(),
                ty: i64_type(),
            };
            if k == 0 {
                statements.push(statement(vec![binder], Exp::SubExp(rest), span));
                break;
            }
            let remainder = Exp::BinOp {
                op: BinOp::Rem,
                ty: PrimType::I64,
                left: rest.clone(),
                right: dim.size.clone(),
            };
            statements.push(statement(vec![binder], remainder, span));
            let outer = self.bind("seg_outer", i64_type());
            let quotient = Exp::BinOp {
                op: BinOp::Quot,
                ty: PrimType::I64,
                left: rest,
                right: dim.size.clone(),
            };
            statements.push(statement(vec![outer.clone()], quotient, span));
            rest = SubExp::Var(outer.name);
        }
        statements
    }
}
