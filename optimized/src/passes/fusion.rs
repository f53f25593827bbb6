//! Producer–consumer fusion of SOACs (issue 5, item 5; in the spirit of
//! Futhark's fusion, Henriksen et al., PLDI'17 §5, restricted to one body):
//!
//! - `map g` into `map f` → one `map (f ∘ g)`;
//! - `map g` into `reduce`/`scan` → `redomap`/`scanomap` with map part `g`;
//! - `map g` into the map part of a `redomap`/`scanomap` → composed;
//! - `map g` into `filter p` → `filter (p ∘ g)` over `g`'s inputs followed by
//!   `map g` over the kept rows only (no intermediate of the full width);
//! - horizontal fusion of two independent `map`s of the same width in the
//!   same body into one `map` returning both results.
//!
//! A producer fuses only when every one of its results is used by its
//! consumer as an input array and nowhere else (its results then disappear).
//! The consumer stays where it is; the producer's work moves there. So that
//! the first run-time error stays the same: producer and consumer are never
//! fused when both can fail ([`crate::ir::effects::can_fail`]), and a producer
//! that can fail is never moved past a statement that can fail. Horizontal
//! fusion merges only maps that cannot fail.

use std::collections::HashMap;

use super::traverse::*;
use crate::ir::effects::*;
use crate::ir::*;

/// The pass: fuses in every function until nothing more fuses.
///
/// Use counts are computed once per function and kept across fusions that
/// move code without copying it (they stay exact, or over-approximate where
/// an array both SOACs read is now passed once, which only makes fusion more
/// cautious); they are recomputed after a `filter` fusion, which copies the
/// producer's lambda.
pub fn fusion(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    for function in &mut program.functions {
        let mut counts = use_counts(function);
        loop {
            match fuse_once_in_body(&mut function.body, &counts, &mut names) {
                Fused::Nothing => break,
                Fused::Moved => {}
                Fused::Copied => counts = use_counts(function),
            }
        }
    }
    program
}

/// What one fusion step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fused {
    Nothing,
    /// Code moved, none copied: the use counts are still valid.
    Moved,
    /// Code was copied (`filter` fusion): the use counts must be recomputed.
    Copied,
}

fn use_counts(function: &mut Function) -> HashMap<VName, usize> {
    let mut counts = UseCounts::default();
    shared::walk_body(&function.body, &mut counts);
    counts.counts
}

/// Performs one fusion somewhere in `body` or its nested bodies.
fn fuse_once_in_body(
    body: &mut Body,
    counts: &HashMap<VName, usize>,
    names: &mut NameSource,
) -> Fused {
    // Vertical: each consumer against the maps that produce its inputs,
    // nearest first.
    let mut producer_of: HashMap<VName, usize> = HashMap::new();
    for consumer in 0..body.statements.len() {
        let mut candidates: Vec<usize> = match &body.statements[consumer].expression {
            Exp::Soac(soac) => consumer_inputs(soac)
                .unwrap_or(&[])
                .iter()
                .filter_map(|a| producer_of.get(a).copied())
                .collect(),
            _ => Vec::new(),
        };
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        candidates.dedup();
        let is_filter = matches!(
            body.statements[consumer].expression,
            Exp::Soac(Soac::Filter { .. })
        );
        for producer in candidates {
            if try_vertical(body, producer, consumer, counts, names) {
                return if is_filter {
                    Fused::Copied
                } else {
                    Fused::Moved
                };
            }
        }
        if let Exp::Soac(Soac::Map { .. }) = &body.statements[consumer].expression {
            for p in &body.statements[consumer].pattern {
                producer_of.insert(p.name.clone(), consumer);
            }
        }
    }
    // Horizontal: each map with the nearest earlier map of the same width.
    let mut last_map_of_width: HashMap<SubExp, usize> = HashMap::new();
    for second in 0..body.statements.len() {
        let Exp::Soac(Soac::Map { width, .. }) = &body.statements[second].expression else {
            continue;
        };
        let width = width.clone();
        if let Some(&first) = last_map_of_width.get(&width) {
            if try_horizontal(body, first, second) {
                return Fused::Moved;
            }
        }
        last_map_of_width.insert(width, second);
    }
    for statement in &mut body.statements {
        for nested in nested_bodies_mut(&mut statement.expression) {
            let fused = fuse_once_in_body(nested, counts, names);
            if fused != Fused::Nothing {
                return fused;
            }
        }
    }
    Fused::Nothing
}

/// The input arrays a consumer reads (`None` for scatter and hist).
fn consumer_inputs(soac: &Soac) -> Option<&[VName]> {
    match soac {
        Soac::Map { arrays, .. }
        | Soac::Reduce { arrays, .. }
        | Soac::Scan { arrays, .. }
        | Soac::Redomap { arrays, .. }
        | Soac::Scanomap { arrays, .. }
        | Soac::Filter { arrays, .. } => Some(arrays),
        Soac::Scatter { .. } | Soac::Hist { .. } => None,
    }
}

fn soac_can_fail(soac: &Soac) -> bool {
    soac.lambdas().into_iter().any(lambda_can_fail)
}

/// Fuses the `map` at `producer` into the SOAC at `consumer` if allowed.
fn try_vertical(
    body: &mut Body,
    producer: usize,
    consumer: usize,
    counts: &HashMap<VName, usize>,
    names: &mut NameSource,
) -> bool {
    let Exp::Soac(Soac::Map {
        width: producer_width,
        lambda: producer_lambda,
        ..
    }) = &body.statements[producer].expression
    else {
        return false;
    };
    let Exp::Soac(consumer_soac) = &body.statements[consumer].expression else {
        return false;
    };
    let Some(inputs) = consumer_inputs(consumer_soac) else {
        return false;
    };
    if consumer_soac.width() != producer_width {
        return false;
    }
    let outputs: Vec<VName> = body.statements[producer]
        .pattern
        .iter()
        .map(|p| p.name.clone())
        .collect();
    if !outputs.iter().any(|o| inputs.contains(o)) {
        return false;
    }
    let only_used_by_consumer = outputs.iter().all(|o| {
        let in_consumer = inputs.iter().filter(|a| *a == o).count();
        counts.get(o).copied().unwrap_or(0) == in_consumer
    });
    if !only_used_by_consumer {
        return false;
    }
    let producer_fails = lambda_can_fail(producer_lambda);
    if producer_fails {
        if soac_can_fail(consumer_soac) {
            return false;
        }
        let between = &body.statements[producer + 1..consumer];
        if between.iter().any(|s| can_fail(&s.expression)) {
            return false;
        }
    }
    let producer_statement = body.statements.remove(producer);
    let consumer_index = consumer - 1;
    let consumer_statement = body.statements.remove(consumer_index);
    let Exp::Soac(Soac::Map {
        lambda: producer_lambda,
        arrays: producer_arrays,
        ..
    }) = producer_statement.expression
    else {
        unreachable!("checked above")
    };
    let producer = Producer {
        lambda: producer_lambda,
        arrays: producer_arrays,
        outputs,
    };
    let fused = fuse_into(producer, consumer_statement, names);
    for (offset, statement) in fused.into_iter().enumerate() {
        body.statements.insert(consumer_index + offset, statement);
    }
    true
}

/// A `map` being fused into its consumer.
struct Producer {
    lambda: Lambda,
    arrays: Vec<VName>,
    outputs: Vec<VName>,
}

/// The consumer statement with the producer fused in (one statement, or two
/// for `filter`).
fn fuse_into(producer: Producer, consumer: Statement, names: &mut NameSource) -> Vec<Statement> {
    let Statement {
        pattern,
        expression,
        span,
    } = consumer;
    let Exp::Soac(soac) = expression else {
        unreachable!("the consumer is a SOAC")
    };
    let one = |soac: Soac| {
        vec![Statement {
            pattern: pattern.clone(),
            expression: Exp::Soac(soac),
            span,
        }]
    };
    match soac {
        Soac::Map {
            width,
            lambda,
            arrays,
        } => {
            let (lambda, arrays) = compose(producer, lambda, arrays);
            one(Soac::Map {
                width,
                lambda,
                arrays,
            })
        }
        Soac::Redomap {
            width,
            map_lambda,
            reduce_lambda,
            neutral,
            arrays,
        } => {
            let (map_lambda, arrays) = compose(producer, map_lambda, arrays);
            one(Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda,
                neutral,
                arrays,
            })
        }
        Soac::Scanomap {
            width,
            map_lambda,
            scan_lambda,
            neutral,
            arrays,
        } => {
            let (map_lambda, arrays) = compose(producer, map_lambda, arrays);
            one(Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda,
                neutral,
                arrays,
            })
        }
        Soac::Reduce {
            width,
            lambda,
            neutral,
            arrays,
        } => {
            let identity = identity_lambda(&lambda, names);
            let (map_lambda, arrays) = compose(producer, identity, arrays);
            one(Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda: lambda,
                neutral,
                arrays,
            })
        }
        Soac::Scan {
            width,
            lambda,
            neutral,
            arrays,
        } => {
            let identity = identity_lambda(&lambda, names);
            let (map_lambda, arrays) = compose(producer, identity, arrays);
            one(Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda: lambda,
                neutral,
                arrays,
            })
        }
        Soac::Filter {
            width,
            predicate,
            arrays,
        } => fuse_into_filter(producer, pattern, width, predicate, arrays, span, names),
        Soac::Scatter { .. } | Soac::Hist { .. } => unreachable!("not a consumer"),
    }
}

/// `\a1…ak -> a1…ak` at the element types of a `k`-ary operator
/// `(a…, b…) -> c…`.
fn identity_lambda(operator: &Lambda, names: &mut NameSource) -> Lambda {
    let k = operator.return_types.len();
    let params: Vec<Param> = operator.params[..k]
        .iter()
        .map(|p| Param {
            name: names.fresh(&p.name.base),
            ty: p.ty.clone(),
        })
        .collect();
    let result = params.iter().map(|p| SubExp::Var(p.name.clone())).collect();
    Lambda {
        return_types: params.iter().map(|p| p.ty.clone()).collect(),
        params,
        body: Body {
            statements: Vec::new(),
            result,
        },
    }
}

/// `consumer ∘ producer` as a lambda over the producer's arrays followed by
/// the consumer's other arrays (an array both read is passed once).
fn compose(
    producer: Producer,
    consumer: Lambda,
    consumer_arrays: Vec<VName>,
) -> (Lambda, Vec<VName>) {
    let Producer {
        lambda: producer_lambda,
        arrays: mut fused_arrays,
        outputs,
    } = producer;
    let mut params = producer_lambda.params;
    let mut substitution = Substitution::default();
    for (param, array) in consumer.params.into_iter().zip(consumer_arrays) {
        if let Some(i) = outputs.iter().position(|o| *o == array) {
            substitution
                .map
                .insert(param.name, producer_lambda.body.result[i].clone());
        } else if let Some(j) = fused_arrays.iter().position(|a| *a == array) {
            substitution
                .map
                .insert(param.name, SubExp::Var(params[j].name.clone()));
        } else {
            params.push(param);
            fused_arrays.push(array);
        }
    }
    let mut consumer_body = consumer.body;
    walk_body(&mut consumer_body, &mut substitution);
    let mut return_types = consumer.return_types;
    for t in &mut return_types {
        walk_type(t, &mut substitution);
    }
    let mut statements = producer_lambda.body.statements;
    statements.extend(consumer_body.statements);
    let lambda = Lambda {
        params,
        body: Body {
            statements,
            result: consumer_body.result,
        },
        return_types,
    };
    (lambda, fused_arrays)
}

/// `filter p (map g xs)` → `filter (p ∘ g) xs` then `map g` over the kept
/// rows (a renamed copy of `g`), so that `g`'s results are materialised only
/// for the rows kept.
fn fuse_into_filter(
    producer: Producer,
    pattern: Vec<PatElem>,
    width: SubExp,
    predicate: Lambda,
    arrays: Vec<VName>,
    span: Span,
    names: &mut NameSource,
) -> Vec<Statement> {
    let mut copy = producer.lambda.clone();
    rename_binders_fresh(names, |v| walk_lambda(&mut copy, v));
    let outputs = producer.outputs.clone();
    let original_arrays = arrays.clone();
    let (predicate, filter_arrays) = compose(producer, predicate, arrays);
    let count = pattern[0].name.clone();
    let count_dim = SubExp::Var(count.clone());
    let kept: Vec<Param> = filter_arrays
        .iter()
        .zip(&predicate.params)
        .map(|(a, p)| Param {
            name: names.fresh(&a.base),
            ty: p.ty.clone().array_of(count_dim.clone()),
        })
        .collect();
    let mut filter_pattern = vec![pattern[0].clone()];
    filter_pattern.extend(kept.iter().cloned());
    let filter = Statement {
        pattern: filter_pattern,
        expression: Exp::Soac(Soac::Filter {
            width,
            predicate,
            arrays: filter_arrays.clone(),
        }),
        span,
    };
    // The map over the kept rows: the copy of `g` reads the kept rows of
    // `g`'s inputs; the other filtered arrays pass through.
    let mut map_params = copy.params.clone();
    let mut map_arrays: Vec<VName> = kept[..map_params.len()]
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let mut result = Vec::new();
    let mut return_types = Vec::new();
    for (array, elem) in original_arrays.iter().zip(&pattern[1..]) {
        let row = elem.ty.row_type().expect("filter results are arrays");
        if let Some(i) = outputs.iter().position(|o| o == array) {
            result.push(copy.body.result[i].clone());
        } else {
            let j = filter_arrays
                .iter()
                .position(|a| a == array)
                .expect("every filtered array is an input of the fused filter");
            let param = Param {
                name: names.fresh(&array.base),
                ty: row.clone(),
            };
            result.push(SubExp::Var(param.name.clone()));
            map_params.push(param);
            map_arrays.push(kept[j].name.clone());
        }
        return_types.push(row);
    }
    let map = Statement {
        pattern: pattern[1..].to_vec(),
        expression: Exp::Soac(Soac::Map {
            width: count_dim,
            lambda: Lambda {
                params: map_params,
                body: Body {
                    statements: copy.body.statements,
                    result,
                },
                return_types,
            },
            arrays: map_arrays,
        }),
        span,
    };
    vec![filter, map]
}

/// Merges two independent `map`s of the same width that cannot fail, where
/// the first's results are not used before the second, into one `map` at
/// the second's place.
fn try_horizontal(body: &mut Body, first: usize, second: usize) -> bool {
    let (
        Exp::Soac(Soac::Map {
            width: w1,
            lambda: l1,
            ..
        }),
        Exp::Soac(Soac::Map {
            width: w2,
            lambda: l2,
            ..
        }),
    ) = (
        &body.statements[first].expression,
        &body.statements[second].expression,
    )
    else {
        return false;
    };
    if w1 != w2 || lambda_can_fail(l1) || lambda_can_fail(l2) {
        return false;
    }
    let first_outputs: Vec<VName> = body.statements[first]
        .pattern
        .iter()
        .map(|p| p.name.clone())
        .collect();
    // The first's results must not be used up to and including the second.
    for statement in &mut body.statements[first + 1..=second] {
        let used = used_in_statement(statement);
        if first_outputs.iter().any(|o| used.contains(o)) {
            return false;
        }
    }
    let first_statement = body.statements.remove(first);
    let second_index = second - 1;
    let second_statement = &mut body.statements[second_index];
    let Exp::Soac(Soac::Map {
        lambda: first_lambda,
        arrays: first_arrays,
        ..
    }) = first_statement.expression
    else {
        unreachable!("checked above")
    };
    let Exp::Soac(Soac::Map {
        lambda: second_lambda,
        arrays: second_arrays,
        ..
    }) = &mut second_statement.expression
    else {
        unreachable!("checked above")
    };
    let mut substitution = Substitution::default();
    let mut params = first_lambda.params;
    let mut arrays = first_arrays;
    for (param, array) in std::mem::take(&mut second_lambda.params)
        .into_iter()
        .zip(std::mem::take(second_arrays))
    {
        if let Some(j) = arrays.iter().position(|a| *a == array) {
            substitution
                .map
                .insert(param.name, SubExp::Var(params[j].name.clone()));
        } else {
            params.push(param);
            arrays.push(array);
        }
    }
    walk_body(&mut second_lambda.body, &mut substitution);
    let mut statements = first_lambda.body.statements;
    statements.append(&mut second_lambda.body.statements);
    let mut result = first_lambda.body.result;
    result.append(&mut second_lambda.body.result);
    let mut return_types = first_lambda.return_types;
    return_types.append(&mut second_lambda.return_types);
    *second_lambda = Lambda {
        params,
        body: Body { statements, result },
        return_types,
    };
    *second_arrays = arrays;
    let mut pattern = first_statement.pattern;
    pattern.append(&mut second_statement.pattern);
    second_statement.pattern = pattern;
    true
}
