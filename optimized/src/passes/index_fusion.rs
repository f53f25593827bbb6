//! Fusion of a cheap `map` nest into the statements that index its result
//! (issue 5: the modular Game of Life's `values = map (map R.value) world`,
//! read only by `values[r, c]` gathers in the neighbourhood sums).
//!
//! A producer `let {ys} = map(w1, \x1 -> map(w2, \x2 -> … S …, x1), xs)`,
//! a perfect nest of `d` maps whose innermost lambda takes primitives and
//! returns one primitive, where every level's inputs are parameters of the
//! level above and the innermost body `S` mentions no parameter of an outer
//! level, is *recomputed where it is read* when every use of `ys` is an
//! element read `ys[i1, …, id]`: each such read becomes the reads
//! `xs[i1, …, id]` of the arrays the innermost parameters come from,
//! followed by a renamed copy of `S`. The producer is then dead (the
//! simplifier removes it). `ys` is never materialised.
//!
//! Applied only when `S` cannot fail ([`crate::ir::effects::can_fail`]), or
//! can fail only independently of the element: every statement of `S`
//! that can fail is an operator at the top level of `S` whose failure
//! depends on its right operand only (integer `/ % // %%` by zero, a
//! negative exponent of `**`), and that operand does not depend on the
//! lambda's parameters (`c % n` with `n` free). Such a producer would fail
//! at its first element if at all, so it is replaced by a *guard*
//! `if w1 > 0 then … if wd > 0 then S[params := 0] else 0 … else 0`, which
//! runs `S` once, at the producer's place, when the producer is not empty:
//! the first failing statement of `S` fails there with its message and
//! span, as the producer's first element did; the copies of `S` at the
//! reads then cannot fail (a read runs only after the guard, and when the
//! producer is empty the read of its source fails first, out of bounds).
//! Either way, removing the producer and running `S` only on the elements
//! read changes no error. Also required: `S` holds no loop or SOAC and at most
//! [`MAX_ELEMENT_STATEMENTS`] statements; and when the copies together stay
//! within [`COPY_BUDGET`] statements. A read of `xs` fails exactly where the
//! read of `ys` failed, with the same message: `ys` and `xs` have the same
//! shape (a map's width is its input's outer size), and the reads keep the
//! original statement's span.

use std::collections::{HashMap, HashSet};

use super::inline::statement_count;
use super::traverse::*;
use crate::ir::effects::*;
use crate::ir::*;

/// The most statements (nested included) of the recomputed element body.
pub const MAX_ELEMENT_STATEMENTS: usize = 4;

/// The most statements all the copies of one producer's body may add.
pub const COPY_BUDGET: usize = 64;

/// The pass.
pub fn index_fusion(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    for function in &mut program.functions {
        let mut producers = HashMap::new();
        find_producers(&function.body, &mut producers);
        if producers.is_empty() {
            continue;
        }
        let mut counts = UseCounts::default();
        shared::walk_body(&function.body, &mut counts);
        let mut reads: HashMap<VName, usize> = HashMap::new();
        count_element_reads(&function.body, &producers, &mut reads);
        producers.retain(|name, producer: &mut MapNest| {
            let read = reads.get(name).copied().unwrap_or(0);
            let guard = if producer.guarded { 1 } else { 0 };
            read > 0
                && counts.counts.get(name).copied() == Some(read)
                && (read + guard).saturating_mul(statement_count(&producer.body)) <= COPY_BUDGET
        });
        if !producers.is_empty() {
            rewrite_reads(&mut function.body, &producers, &mut names);
        }
    }
    program
}

/// A producer that qualifies: the arrays its innermost parameters read (one
/// per parameter, in order), the innermost lambda's body, and whether that
/// body can fail (independently of the element), so that the producer is
/// replaced by a guard over its widths (outermost first).
struct MapNest {
    depth: usize,
    params: Vec<Param>,
    sources: Vec<VName>,
    body: Body,
    result_type: PrimType,
    widths: Vec<SubExp>,
    guarded: bool,
}

fn find_producers(body: &Body, producers: &mut HashMap<VName, MapNest>) {
    for statement in &body.statements {
        if let Some(nest) = map_nest(statement) {
            producers.insert(statement.pattern[0].name.clone(), nest);
        }
        for inner in statement.expression.bodies() {
            find_producers(inner, producers);
        }
        for lambda in statement.expression.lambdas() {
            find_producers(&lambda.body, producers);
        }
    }
}

/// `statement` as a qualifying map nest.
fn map_nest(statement: &Statement) -> Option<MapNest> {
    let Exp::Soac(Soac::Map {
        lambda,
        arrays,
        width,
    }) = &statement.expression
    else {
        return None;
    };
    let mut widths = vec![width.clone()];
    if statement.pattern.len() != 1 {
        return None;
    }
    let mut sources: HashMap<VName, VName> = lambda
        .params
        .iter()
        .zip(arrays)
        .map(|(p, a)| (p.name.clone(), a.clone()))
        .collect();
    let mut outer_params: HashSet<VName> = HashSet::new();
    let mut lambda = lambda;
    let mut depth = 1;
    while let [Statement {
        pattern,
        expression:
            Exp::Soac(Soac::Map {
                lambda: inner,
                arrays: inputs,
                width: inner_width,
            }),
        ..
    }] = lambda.body.statements.as_slice()
    {
        let single_result =
            pattern.len() == 1 && lambda.body.result == [SubExp::Var(pattern[0].name.clone())];
        if !single_result || !inputs.iter().all(|i| sources.contains_key(i)) {
            break;
        }
        let next: HashMap<VName, VName> = inner
            .params
            .iter()
            .zip(inputs)
            .map(|(p, i)| (p.name.clone(), sources[i].clone()))
            .collect();
        outer_params.extend(lambda.params.iter().map(|p| p.name.clone()));
        outer_params.insert(pattern[0].name.clone());
        widths.push(inner_width.clone());
        sources = next;
        lambda = inner;
        depth += 1;
    }
    let element = &lambda.body;
    let primitive = |ty: &Type| matches!(ty, Type::Prim(_));
    if !lambda.params.iter().all(|p| primitive(&p.ty))
        || lambda.return_types.len() != 1
        || !primitive(&lambda.return_types[0])
        || !fails_independently_of(element, &lambda.params)
        || statement_count(element) > MAX_ELEMENT_STATEMENTS
        || has_loop_or_soac(element)
    {
        return None;
    }
    let mut used = UsedNames::default();
    shared::walk_body(element, &mut used);
    if !used.names.is_disjoint(&outer_params) {
        return None;
    }
    let guarded = body_can_fail(element);
    let width_is_outer = |w: &SubExp| match w {
        SubExp::Var(v) => !outer_params.contains(v),
        SubExp::Constant(_) => true,
    };
    if guarded && !widths.iter().all(width_is_outer) {
        return None;
    }
    Some(MapNest {
        depth,
        sources: lambda
            .params
            .iter()
            .map(|p| sources[&p.name].clone())
            .collect(),
        params: lambda.params.clone(),
        body: element.clone(),
        result_type: lambda.return_types[0].element(),
        widths,
        guarded,
    })
}

/// Whether every statement of `body` that can fail is an operator at its
/// top level whose failure depends only on its right operand
/// ([`binop_can_fail`]), and that operand does not depend on `params`
/// (directly or through earlier statements): whether `body` fails, and with
/// which statement's error, is then the same for every element.
fn fails_independently_of(body: &Body, params: &[Param]) -> bool {
    let mut dependent: HashSet<VName> = params.iter().map(|p| p.name.clone()).collect();
    for statement in &body.statements {
        if can_fail(&statement.expression) {
            let Exp::BinOp { right, .. } = &statement.expression else {
                return false;
            };
            if matches!(right, SubExp::Var(v) if dependent.contains(v)) {
                return false;
            }
        }
        let mut used = UsedNames::default();
        shared::walk_exp(&statement.expression, &mut used);
        if !used.names.is_disjoint(&dependent) {
            dependent.extend(statement.pattern.iter().map(|p| p.name.clone()));
        }
    }
    true
}

fn has_loop_or_soac(body: &Body) -> bool {
    body.statements.iter().any(|s| match &s.expression {
        Exp::Loop { .. } | Exp::Soac(_) => true,
        exp => exp.bodies().into_iter().any(has_loop_or_soac),
    })
}

/// The producer an element read `ys[i1, …, id]` reads, if it is one.
fn element_read<'a>(
    exp: &Exp,
    producers: &'a HashMap<VName, MapNest>,
) -> Option<(&'a VName, &'a MapNest)> {
    let Exp::Index { array, indices } = exp else {
        return None;
    };
    let (name, nest) = producers.get_key_value(array)?;
    (indices.len() == nest.depth).then_some((name, nest))
}

fn count_element_reads(
    body: &Body,
    producers: &HashMap<VName, MapNest>,
    reads: &mut HashMap<VName, usize>,
) {
    for statement in &body.statements {
        if let Some((name, _)) = element_read(&statement.expression, producers) {
            *reads.entry(name.clone()).or_default() += 1;
        }
        for inner in statement.expression.bodies() {
            count_element_reads(inner, producers, reads);
        }
        for lambda in statement.expression.lambdas() {
            count_element_reads(&lambda.body, producers, reads);
        }
    }
}

fn rewrite_reads(body: &mut Body, producers: &HashMap<VName, MapNest>, names: &mut NameSource) {
    let mut statements = Vec::with_capacity(body.statements.len());
    for mut statement in std::mem::take(&mut body.statements) {
        for nested in nested_bodies_mut(&mut statement.expression) {
            rewrite_reads(nested, producers, names);
        }
        if let Some(nest) = statement
            .pattern
            .first()
            .and_then(|p| producers.get(&p.name))
            .filter(|nest| nest.guarded)
        {
            statements.extend(guard(&statement, nest, names));
            continue;
        }
        let Some((_, nest)) = element_read(&statement.expression, producers) else {
            statements.push(statement);
            continue;
        };
        let Exp::Index { indices, .. } = &statement.expression else {
            unreachable!("an element read is an index")
        };
        let mut copy = nest.body.clone();
        rename_binders_fresh(names, |v| walk_body(&mut copy, v));
        let mut substitution = Substitution::default();
        for (param, source) in nest.params.iter().zip(&nest.sources) {
            let read = names.fresh(&param.name.base);
            statements.push(Statement {
                pattern: vec![Param {
                    name: read.clone(),
                    ty: param.ty.clone(),
                }],
                expression: Exp::Index {
                    array: source.clone(),
                    indices: indices.clone(),
                },
                span: statement.span,
            });
            substitution
                .map
                .insert(param.name.clone(), SubExp::Var(read));
        }
        walk_body(&mut copy, &mut substitution);
        statements.extend(copy.statements);
        statements.push(Statement {
            pattern: statement.pattern,
            expression: Exp::SubExp(copy.result[0].clone()),
            span: statement.span,
        });
    }
    body.statements = statements;
}

/// What replaces a producer whose body can fail independently of the
/// element (two statements, the outermost test and its `if`): `let g = if w1 > 0 then … if wd > 0 then S[params := 0] else 0
/// … else 0` (the zeros of the parameters' and the result's types), at the
/// producer's place and with its span. It fails where the producer's first
/// element failed, with the same statement's message and span, and
/// succeeds where the producer succeeded. Nothing reads `g`; the simplifier
/// keeps it because it can fail.
fn guard(producer: &Statement, nest: &MapNest, names: &mut NameSource) -> Vec<Statement> {
    let mut element = nest.body.clone();
    rename_binders_fresh(names, |v| walk_body(&mut element, v));
    let mut zeros = Substitution::default();
    for param in &nest.params {
        let zero = crate::cpu::prim::zero(param.ty.element());
        zeros.map.insert(param.name.clone(), SubExp::Constant(zero));
    }
    walk_body(&mut element, &mut zeros);
    let result = Type::Prim(nest.result_type);
    let zero = || Body {
        statements: Vec::new(),
        result: vec![SubExp::Constant(crate::cpu::prim::zero(nest.result_type))],
    };
    let mut body = element;
    for width in nest.widths.iter().rev() {
        let positive = names.fresh("nonempty");
        let test = Statement {
            pattern: vec![Param {
                name: positive.clone(),
                ty: Type::Prim(PrimType::Bool),
            }],
            expression: Exp::CmpOp {
                op: CmpOp::Gt,
                ty: PrimType::I64,
                left: width.clone(),
                right: SubExp::Constant(PrimValue::I64(0)),
            },
            span: producer.span,
        };
        let value = names.fresh("guard");
        let branch = Statement {
            pattern: vec![Param {
                name: value.clone(),
                ty: result.clone(),
            }],
            expression: Exp::If {
                condition: SubExp::Var(positive),
                then_body: body,
                else_body: zero(),
                types: vec![result.to_ext()],
            },
            span: producer.span,
        };
        body = Body {
            statements: vec![test, branch],
            result: vec![SubExp::Var(value)],
        };
    }
    body.statements
}
