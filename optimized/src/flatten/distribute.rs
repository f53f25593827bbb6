//! **F-Distribute**: map distribution (Henriksen et al., PLDI'17 §5), the
//! step of moderate flattening that makes an imperfect nest perfect ones.
//! A host `map` whose body has statements after its first SOAC,
//!
//! ```text
//! let r̄ = map (\x̄ -> A; B in r̄') ȳ      (A ends with the body's first SOAC)
//! ```
//!
//! where every name `A` binds that `B` or the result reads is a scalar
//! (`s̄`), is distributed into a map of `A`, whose results are those
//! scalars as arrays, and a map of `B` over them:
//!
//! ```text
//! let s̄s = map (\x̄ -> A in s̄) ȳ
//! let r̄ = map (\x̄' s̄' -> B[x̄'/x̄, s̄'/s̄] in r̄'[…]) ȳ s̄s
//! ```
//!
//! The second map is distributed again where it can be, and F-Map and
//! F-Nest then flatten each (a row's reduction becomes a segmented
//! reduction, a map over the row a segmented map reading its scalar as a
//! row of `s̄s`). Errors stay where they were (ARCHITECTURE's "errors are
//! preserved exactly"): the rule applies only where `A` or `B` cannot fail,
//! so the first error of the distributed maps, row by row, is the nest's.

use std::collections::HashSet;

use crate::ir::effects::can_fail;
use crate::ir::visit::{for_each_use_in_exp, for_each_use_in_type, mutable};
use crate::ir::{Body, Exp, Lambda, NameSource, Param, Soac, Statement, SubExp, Type, VName};
use crate::passes::traverse::Substitution;

/// The two statements `statement` (a host `map`) distributes into, if
/// F-Distribute applies (see the module documentation).
pub(super) fn distribute(statement: &Statement, names: &mut NameSource) -> Option<[Statement; 2]> {
    let Exp::Soac(Soac::Map {
        width,
        lambda,
        arrays,
    }) = &statement.expression
    else {
        return None;
    };
    let statements = &lambda.body.statements;
    let first_soac = statements
        .iter()
        .position(|s| matches!(s.expression, Exp::Soac(_)))?;
    let (prefix, rest) = statements.split_at(first_soac + 1);
    let can_fail_in = |part: &[Statement]| part.iter().any(|s| can_fail(&s.expression));
    if rest.is_empty() || (can_fail_in(prefix) && can_fail_in(rest)) {
        return None;
    }
    // The names of the prefix the rest reads: all scalars.
    let mut read_by_rest = HashSet::new();
    for statement in rest {
        for_each_use_in_exp(&statement.expression, |name| {
            read_by_rest.insert(name.clone());
        });
    }
    for result in &lambda.body.result {
        if let SubExp::Var(name) = result {
            read_by_rest.insert(name.clone());
        }
    }
    let carried: Vec<&Param> = prefix
        .iter()
        .flat_map(|s| &s.pattern)
        .filter(|p| read_by_rest.contains(&p.name))
        .collect();
    // Nothing carried: the part up to the SOAC is dead code, not a level.
    if carried.is_empty() || carried.iter().any(|p| !matches!(p.ty, Type::Prim(_))) {
        return None;
    }
    // A name of the prefix in a type the second map states (its patterns,
    // its lambda's results) would leave its scope.
    let prefix_names: HashSet<&VName> = prefix
        .iter()
        .flat_map(|s| &s.pattern)
        .map(|p| &p.name)
        .collect();
    let mut in_types = false;
    let rest_types = rest.iter().flat_map(|s| &s.pattern).map(|p| &p.ty);
    for ty in rest_types.chain(&lambda.return_types) {
        for_each_use_in_type(ty, |name| in_types |= prefix_names.contains(name));
    }
    if in_types {
        return None;
    }
    let span = statement.span;
    let carried_arrays: Vec<Param> = carried
        .iter()
        .map(|p| Param {
            name: names.fresh(&format!("{}_rows", p.name.base)),
            ty: p.ty.clone().array_of(width.clone()),
        })
        .collect();
    let first = Statement {
        pattern: carried_arrays.clone(),
        expression: Exp::Soac(Soac::Map {
            width: width.clone(),
            lambda: Lambda {
                params: lambda.params.clone(),
                body: Body {
                    statements: prefix.to_vec(),
                    result: carried
                        .iter()
                        .map(|p| SubExp::Var(p.name.clone()))
                        .collect(),
                },
                return_types: carried.iter().map(|p| p.ty.clone()).collect(),
            },
            arrays: arrays.clone(),
        }),
        span,
    };
    // The second map's parameters: fresh copies of those of the first the
    // rest reads, and of the carried scalars, substituted in the rest.
    let mut substitution = Substitution::default();
    let mut params = Vec::new();
    let mut second_arrays = Vec::new();
    let inputs = lambda.params.iter().zip(arrays.iter().cloned());
    let read_inputs = inputs.filter(|(p, _)| read_by_rest.contains(&p.name));
    let carried_inputs = carried
        .iter()
        .copied()
        .zip(carried_arrays.iter().map(|p| p.name.clone()));
    for (p, array) in read_inputs.chain(carried_inputs) {
        let fresh = names.fresh(&p.name.base);
        substitution
            .map
            .insert(p.name.clone(), SubExp::Var(fresh.clone()));
        params.push(Param {
            name: fresh,
            ty: p.ty.clone(),
        });
        second_arrays.push(array);
    }
    if second_arrays.is_empty() {
        return None;
    }
    let mut rest = Body {
        statements: rest.to_vec(),
        result: lambda.body.result.clone(),
    };
    mutable::walk_body(&mut rest, &mut substitution);
    let second = Statement {
        pattern: statement.pattern.clone(),
        expression: Exp::Soac(Soac::Map {
            width: width.clone(),
            lambda: Lambda {
                params,
                body: rest,
                return_types: lambda.return_types.clone(),
            },
            arrays: second_arrays,
        }),
        span,
    };
    Some([first, second])
}
