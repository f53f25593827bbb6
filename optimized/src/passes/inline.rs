//! Inlining (issue 5, item 5): a call of a function that is called once in
//! the whole program, or whose body is small, or whose copies fit in the
//! program's growth budget ([`INLINE_GROWTH_BUDGET`]), is replaced by a
//! renamed copy of the body (parameters substituted by the arguments, the call's
//! pattern by the body's results, existential sizes included; a parameter
//! or result that stands for a negative `i64` constant also keeps a
//! binding, since the substitution leaves its name in dimension positions).
//! Functions are inlined leaves first, so recursion (which the IR does not
//! forbid) is never unrolled; functions no longer called and not entry
//! points are dropped. The pipeline simplifies right after this pass.

use std::collections::{HashMap, HashSet};

use super::traverse::*;
use crate::ir::*;

/// A function with at most this many statements (nested ones included) is
/// inlined at every call.
pub const SMALL_FUNCTION_STATEMENTS: usize = 8;

/// The most statements that inlining functions with more than
/// [`SMALL_FUNCTION_STATEMENTS`] statements at several call sites may add
/// to one program: a function of `s` statements called `k > 1` times costs
/// `(k - 1) * s` (its original copy goes when it is no longer called;
/// an entry point's stays, and costs `k * s`).
/// Candidates are taken in program order while their cost fits what is
/// left, so the growth (and the compile time it costs) is bounded whatever
/// the program's size.
pub const INLINE_GROWTH_BUDGET: usize = 256;

/// Rounds of inlining at most (each inlines the current leaves).
const MAX_ROUNDS: usize = 32;

/// The pass.
pub fn inline(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    let mut budget = INLINE_GROWTH_BUDGET;
    let entries: HashSet<FunName> = program
        .entry_points
        .iter()
        .map(|e| e.function.clone())
        .collect();
    // What each function calls, and how many call sites each function has
    // in the whole program: computed once, then updated for the functions a
    // round changes or drops, so a round costs the code it inlines and one
    // look-up per function, not a traversal of the whole program.
    let mut callees: HashMap<FunName, HashMap<FunName, usize>> = program
        .functions
        .iter()
        .map(|f| {
            let mut counts = HashMap::new();
            count_calls(&f.body, &mut counts);
            (f.name.clone(), counts)
        })
        .collect();
    let mut calls: HashMap<FunName, usize> = HashMap::new();
    for counts in callees.values() {
        add_counts(&mut calls, counts);
    }
    for _ in 0..MAX_ROUNDS {
        let candidates: HashMap<FunName, Function> = program
            .functions
            .iter()
            .filter(|f| callees.get(&f.name).is_none_or(HashMap::is_empty))
            .filter(|f| {
                let n = calls.get(&f.name).copied().unwrap_or(0);
                if n == 0 {
                    return false;
                }
                let size = statement_count(&f.body);
                if n == 1 || size <= SMALL_FUNCTION_STATEMENTS {
                    return true;
                }
                let copies_kept = if entries.contains(&f.name) { n } else { n - 1 };
                let growth = size.saturating_mul(copies_kept);
                let fits = growth <= budget;
                if fits {
                    budget -= growth;
                }
                fits
            })
            .map(|f| (f.name.clone(), f.clone()))
            .collect();
        if candidates.is_empty() {
            break;
        }
        for function in &mut program.functions {
            if candidates.contains_key(&function.name) {
                continue;
            }
            let Some(counts) = callees.get_mut(&function.name) else {
                continue;
            };
            if !counts.keys().any(|callee| candidates.contains_key(callee)) {
                continue;
            }
            inline_in_function(function, &candidates, &mut names);
            let mut updated = HashMap::new();
            count_calls(&function.body, &mut updated);
            remove_counts(&mut calls, counts);
            add_counts(&mut calls, &updated);
            *counts = updated;
        }
        program.functions.retain(|f| {
            let keep = !candidates.contains_key(&f.name)
                || entries.contains(&f.name)
                || calls.get(&f.name).copied().unwrap_or(0) > 0;
            if !keep {
                if let Some(counts) = callees.remove(&f.name) {
                    remove_counts(&mut calls, &counts);
                }
            }
            keep
        });
    }
    program
}

fn add_counts(calls: &mut HashMap<FunName, usize>, counts: &HashMap<FunName, usize>) {
    for (callee, n) in counts {
        *calls.entry(callee.clone()).or_default() += n;
    }
}

fn remove_counts(calls: &mut HashMap<FunName, usize>, counts: &HashMap<FunName, usize>) {
    for (callee, n) in counts {
        if let Some(total) = calls.get_mut(callee) {
            *total -= n;
            if *total == 0 {
                calls.remove(callee);
            }
        }
    }
}

fn inline_in_function(
    function: &mut Function,
    candidates: &HashMap<FunName, Function>,
    names: &mut NameSource,
) {
    let mut results = Substitution::default();
    let body = std::mem::take(&mut function.body);
    function.body = inline_in_body(body, candidates, names, &mut results);
    walk_body(&mut function.body, &mut results);
}

/// Replaces calls of candidates in `body` (and nested bodies); records in
/// `results` what each replaced call's pattern stands for.
fn inline_in_body(
    body: Body,
    candidates: &HashMap<FunName, Function>,
    names: &mut NameSource,
    results: &mut Substitution,
) -> Body {
    let mut statements = Vec::with_capacity(body.statements.len());
    for mut statement in body.statements {
        for nested in nested_bodies_mut(&mut statement.expression) {
            let inner = std::mem::take(nested);
            *nested = inline_in_body(inner, candidates, names, results);
        }
        let callee = match &statement.expression {
            Exp::Apply { function, .. } => candidates.get(function),
            _ => None,
        };
        let Some(callee) = callee else {
            statements.push(statement);
            continue;
        };
        let Exp::Apply { args, .. } = &statement.expression else {
            unreachable!("matched above")
        };
        let mut copy = callee.clone();
        rename_binders_fresh(names, |v| {
            for p in &mut copy.params {
                walk_param(p, v);
            }
            walk_body(&mut copy.body, v);
        });
        let mut arguments = Substitution::default();
        for (p, a) in copy.params.iter().zip(args) {
            arguments.map.insert(p.name.clone(), a.clone());
            // The substitution leaves the parameter's name in dimension
            // positions (a body result among them): it stays bound.
            if !may_be_dimension(a) {
                statements.push(binding(p.clone(), a.clone(), statement.span));
            }
        }
        walk_body(&mut copy.body, &mut arguments);
        let mut result_bindings = Vec::new();
        for (p, r) in statement.pattern.iter().zip(&copy.body.result) {
            let resolved = match r {
                SubExp::Var(v) => results.map.get(v).cloned().unwrap_or_else(|| r.clone()),
                SubExp::Constant(_) => r.clone(),
            };
            if !may_be_dimension(&resolved) {
                result_bindings.push(binding(p.clone(), resolved.clone(), statement.span));
            }
            results.map.insert(p.name.clone(), resolved);
        }
        statements.extend(copy.body.statements);
        statements.extend(result_bindings);
    }
    Body {
        statements,
        result: body.result,
    }
}

/// `let {name: ty} = operand`: keeps a name bound to a constant that the
/// substitution does not put in dimension positions ([`may_be_dimension`]);
/// the simplifier removes it where no dimension needs it.
fn binding(name: PatElem, operand: SubExp, span: Span) -> Statement {
    Statement {
        pattern: vec![name],
        expression: Exp::SubExp(operand),
        span,
    }
}

fn count_calls(body: &Body, counts: &mut HashMap<FunName, usize>) {
    for s in &body.statements {
        if let Exp::Apply { function, .. } = &s.expression {
            *counts.entry(function.clone()).or_default() += 1;
        }
        for b in s.expression.bodies() {
            count_calls(b, counts);
        }
        for l in s.expression.lambdas() {
            count_calls(&l.body, counts);
        }
    }
}

/// The statements of a body, nested ones included.
pub fn statement_count(body: &Body) -> usize {
    body.statements
        .iter()
        .map(|s| {
            1 + s
                .expression
                .bodies()
                .into_iter()
                .map(statement_count)
                .sum::<usize>()
                + s.expression
                    .lambdas()
                    .into_iter()
                    .map(|l| statement_count(&l.body))
                    .sum::<usize>()
        })
        .sum()
}
