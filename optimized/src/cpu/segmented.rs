//! How the CPU backend runs the segmented IR ([`crate::ir::segmented`]):
//! every segmented operation becomes one parallel SOAC over its whole index
//! space, which [`super::soac`] then runs in chunks with rayon.
//!
//! - `segmap` over `[n₁]…[nₖ]` is one `map` over the `n₁·…·nₖ` points of
//!   the space (an `iota`), whose lambda recovers the point's indices from
//!   its flat, row-major position and runs the body; each result is
//!   reshaped to `[n₁]…[nₖ]t`. A nest of maps thus runs with parallelism
//!   over every level at once, not over the outer level alone.
//! - `segred` over one dimension is a `redomap` over `iota n₁` whose map
//!   lambda is the body; over `k > 1` dimensions it is a `segmap` over the
//!   `k − 1` segment dimensions whose body is that `redomap` over the
//!   innermost one.
//! - `segscan` likewise, with `scanomap`.
//!
//! The result is SOAC IR again (checked by [`crate::ir::check`] before it
//! is compiled): the expansion keeps the names of the body and the
//! operator, and takes every name it adds from a [`NameSource`] fresh for
//! the program.

use crate::ir::{
    BinOp, Body, Exp, Lambda, NameSource, Param, PrimType, Program, SegDim, SegOp, Soac, Span,
    Statement, SubExp, Type, VName,
};

/// `program` with every segmented operation expanded into SOACs.
pub fn expand_segmented_operations(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    for function in &mut program.functions {
        expand_body(&mut function.body, &mut names);
    }
    program
}

fn expand_body(body: &mut Body, names: &mut NameSource) {
    let statements = std::mem::take(&mut body.statements);
    for mut statement in statements {
        for inner in crate::passes::traverse::nested_bodies_mut(&mut statement.expression) {
            expand_body(inner, names);
        }
        match statement.expression {
            Exp::Seg(op) => {
                body.statements
                    .extend(expand(op, statement.pattern, statement.span, names));
            }
            _ => body.statements.push(statement),
        }
    }
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

/// `let {name: [length]i64} = iota length`.
fn iota(length: &SubExp, names: &mut NameSource, span: Span) -> (VName, Statement) {
    let name = names.fresh("seg_iota");
    let ty = i64_type().array_of(length.clone());
    let exp = Exp::Iota {
        length: length.clone(),
        start: SubExp::i64(0),
        step: SubExp::i64(1),
        element: PrimType::I64,
    };
    let bound = statement(
        vec![Param {
            name: name.clone(),
            ty,
        }],
        exp,
        span,
    );
    (name, bound)
}

/// The statements that compute `pattern` from `op`.
fn expand(op: SegOp, pattern: Vec<Param>, span: Span, names: &mut NameSource) -> Vec<Statement> {
    match op {
        SegOp::Map {
            space,
            body,
            return_types,
        } => expand_map(space.dims, body, return_types, pattern, span, names),
        SegOp::Red {
            mut space,
            body,
            operator,
            neutral,
        } => {
            let inner = space
                .dims
                .pop()
                .expect("the checker rejects an empty space");
            combine_innermost(
                space.dims,
                inner,
                body,
                operator,
                neutral,
                Combine::Reduce,
                pattern,
                span,
                names,
            )
        }
        SegOp::Scan {
            mut space,
            body,
            operator,
            neutral,
        } => {
            let inner = space
                .dims
                .pop()
                .expect("the checker rejects an empty space");
            combine_innermost(
                space.dims,
                inner,
                body,
                operator,
                neutral,
                Combine::Scan,
                pattern,
                span,
                names,
            )
        }
    }
}

#[derive(Clone, Copy)]
enum Combine {
    Reduce,
    Scan,
}

/// A reduction or scan along `inner` in every segment of `outer`: the
/// `redomap`/`scanomap` over `iota inner.size` with `body` as its map
/// lambda, in a `segmap` over `outer` when there are segments.
#[allow(clippy::too_many_arguments)]
fn combine_innermost(
    outer: Vec<SegDim>,
    inner: SegDim,
    body: Body,
    operator: Lambda,
    neutral: Vec<SubExp>,
    combine: Combine,
    pattern: Vec<Param>,
    span: Span,
    names: &mut NameSource,
) -> Vec<Statement> {
    let (indices, iota_statement) = iota(&inner.size, names, span);
    let element_types = operator.return_types.clone();
    let map_lambda = Lambda {
        params: vec![Param {
            name: inner.index,
            ty: i64_type(),
        }],
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
            arrays: vec![indices],
        },
        Combine::Scan => Soac::Scanomap {
            width,
            map_lambda,
            scan_lambda: operator,
            neutral,
            arrays: vec![indices],
        },
    };
    if outer.is_empty() {
        return vec![iota_statement, statement(pattern, Exp::Soac(soac), span)];
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
        .map(|ty| Param {
            name: names.fresh("segment"),
            ty: ty.clone(),
        })
        .collect();
    let segment_body = Body {
        result: segment_results
            .iter()
            .map(|p| SubExp::Var(p.name.clone()))
            .collect(),
        statements: vec![
            iota_statement,
            statement(segment_results, Exp::Soac(soac), span),
        ],
    };
    expand_map(outer, segment_body, segment_types, pattern, span, names)
}

/// A `segmap` as one `map` over its flattened space.
fn expand_map(
    dims: Vec<SegDim>,
    mut body: Body,
    return_types: Vec<Type>,
    pattern: Vec<Param>,
    span: Span,
    names: &mut NameSource,
) -> Vec<Statement> {
    let mut statements = Vec::new();
    if let [dim] = dims.as_slice() {
        let (indices, iota_statement) = iota(&dim.size, names, span);
        statements.push(iota_statement);
        let lambda = Lambda {
            params: vec![Param {
                name: dim.index.clone(),
                ty: i64_type(),
            }],
            body,
            return_types,
        };
        let map = Soac::Map {
            width: dim.size.clone(),
            lambda,
            arrays: vec![indices],
        };
        statements.push(statement(pattern, Exp::Soac(map), span));
        return statements;
    }
    // The number of points, `n₁ · … · nₖ`.
    let mut total = dims[0].size.clone();
    for dim in &dims[1..] {
        let product = names.fresh("seg_points");
        statements.push(statement(
            vec![Param {
                name: product.clone(),
                ty: i64_type(),
            }],
            Exp::BinOp {
                op: BinOp::Mul,
                ty: PrimType::I64,
                left: total,
                right: dim.size.clone(),
            },
            span,
        ));
        total = SubExp::Var(product);
    }
    let (indices, iota_statement) = iota(&total, names, span);
    statements.push(iota_statement);
    // The point's indices from its row-major position: the innermost index
    // is the remainder by the innermost size, and so on outwards. Only run
    // when every size is positive (there is no point otherwise).
    let position = names.fresh("seg_position");
    let mut index_statements = Vec::new();
    let mut rest = SubExp::Var(position.clone());
    for (k, dim) in dims.iter().enumerate().rev() {
        let binder = Param {
            name: dim.index.clone(),
            ty: i64_type(),
        };
        if k == 0 {
            index_statements.push(statement(vec![binder], Exp::SubExp(rest.clone()), span));
            break;
        }
        index_statements.push(statement(
            vec![binder],
            Exp::BinOp {
                op: BinOp::Rem,
                ty: PrimType::I64,
                left: rest.clone(),
                right: dim.size.clone(),
            },
            span,
        ));
        let outer = names.fresh("seg_outer");
        index_statements.push(statement(
            vec![Param {
                name: outer.clone(),
                ty: i64_type(),
            }],
            Exp::BinOp {
                op: BinOp::Quot,
                ty: PrimType::I64,
                left: rest,
                right: dim.size.clone(),
            },
            span,
        ));
        rest = SubExp::Var(outer);
    }
    index_statements.append(&mut body.statements);
    body.statements = index_statements;
    let flat: Vec<Param> = return_types
        .iter()
        .map(|ty| Param {
            name: names.fresh("seg_flat"),
            ty: ty.clone().array_of(total.clone()),
        })
        .collect();
    let lambda = Lambda {
        params: vec![Param {
            name: position,
            ty: i64_type(),
        }],
        body,
        return_types: return_types.clone(),
    };
    let map = Soac::Map {
        width: total,
        lambda,
        arrays: vec![indices],
    };
    statements.push(statement(flat.clone(), Exp::Soac(map), span));
    for (flat, target) in flat.into_iter().zip(pattern) {
        let shape = target.ty.shape().to_vec();
        statements.push(statement(
            vec![target],
            Exp::Reshape {
                shape,
                array: flat.name,
            },
            span,
        ));
    }
    statements
}
