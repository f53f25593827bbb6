//! Exhaustiveness of `match` and irrefutability of binding patterns.
//!
//! Futhark rejects a `match` that misses a case and a refutable pattern where
//! a value is bound (`let`, parameters, loop parameters). Checked at the end of
//! each top-level definition, when sum types built from constructors alone have
//! been closed and literals defaulted. The algorithm is the usefulness check of
//! Maranget ("Warnings for pattern matching", 2007) specialised to finding one
//! missing value, which the diagnostic shows (`#none`, `(_, false)`).
//!
//! Constructors: `true`/`false` (complete), the constructors of a sum type
//! (complete), records and tuples (one constructor), numeric literals (never
//! complete). A type containing [`Type::Error`] is treated as covered, so an
//! earlier mistake never causes a second report here.

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{Literal, Name, Pat};

use super::rules::PaperRule;
use super::Checker;
use crate::types::{FieldName, Type};

/// Where a pattern is checked, which decides the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PatternSite {
    /// The cases of a `match`, which together must be exhaustive.
    Match,
    /// A single pattern that binds a value: it must be irrefutable.
    Binding,
}

/// A check postponed to the end of the definition.
pub(crate) struct PendingPatternCheck {
    pub(crate) site: PatternSite,
    pub(crate) patterns: Vec<Pat>,
    pub(crate) ty: Type,
    pub(crate) span: Span,
}

/// A constructor, in the sense of the usefulness algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Constructor {
    Bool(bool),
    Sum(Name),
    /// The one constructor of a record type (tuples included).
    Record,
    /// A numeric literal, by its text (`-1`, `2`, `1.5`).
    Number(String),
}

/// A pattern reduced to what matters for coverage.
#[derive(Clone, Debug)]
enum Simple {
    Wild,
    Construct(Constructor, Vec<Simple>),
}

/// A value the patterns miss, for the message.
#[derive(Clone, Debug)]
enum Witness {
    Any,
    Construct(Constructor, Vec<Witness>, Vec<FieldName>),
}

fn simplify(pat: &Pat) -> Simple {
    match pat {
        Pat::Var { .. } | Pat::Wildcard { .. } => Simple::Wild,
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => simplify(pat),
        Pat::Tuple { elements, .. } => {
            Simple::Construct(Constructor::Record, elements.iter().map(simplify).collect())
        }
        Pat::Record { fields, .. } => {
            let mut sorted: Vec<(FieldName, &Pat)> = fields
                .iter()
                .map(|(name, pat)| (FieldName(name.clone()), pat))
                .collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            Simple::Construct(
                Constructor::Record,
                sorted.into_iter().map(|(_, pat)| simplify(pat)).collect(),
            )
        }
        Pat::Literal {
            literal: Literal::Bool(value),
            ..
        } => Simple::Construct(Constructor::Bool(*value), Vec::new()),
        Pat::Literal {
            literal, negative, ..
        } => {
            let text = match literal {
                Literal::Int { value, .. } => value.to_string(),
                Literal::Float { bits, .. } => f64::from_bits(*bits).to_string(),
                Literal::Bool(value) => value.to_string(),
            };
            let sign = if *negative { "-" } else { "" };
            Simple::Construct(Constructor::Number(format!("{sign}{text}")), Vec::new())
        }
        Pat::Constructor { name, payload, .. } => Simple::Construct(
            Constructor::Sum(name.clone()),
            payload.iter().map(simplify).collect(),
        ),
    }
}

/// The complete list of constructors of `ty` with their argument types, or
/// `None` when the type's values cannot all be listed (numbers, variables).
/// One constructor of a type: its argument types, and for records the field
/// names of the arguments.
type SignatureEntry = (Constructor, Vec<Type>, Vec<FieldName>);

fn signature(ty: &Type) -> Option<Vec<SignatureEntry>> {
    match ty {
        Type::Prim(crate::types::PrimType::Bool) => Some(vec![
            (Constructor::Bool(false), Vec::new(), Vec::new()),
            (Constructor::Bool(true), Vec::new(), Vec::new()),
        ]),
        Type::Sum(constructors) => Some(
            constructors
                .iter()
                .map(|(name, payload)| {
                    (Constructor::Sum(name.clone()), payload.clone(), Vec::new())
                })
                .collect(),
        ),
        Type::Record(fields) => Some(vec![(
            Constructor::Record,
            fields.values().cloned().collect(),
            fields.keys().cloned().collect(),
        )]),
        _ => None,
    }
}

fn contains_error(ty: &Type) -> bool {
    match ty {
        Type::Error => true,
        Type::Array { element, .. } => contains_error(element),
        Type::Record(fields) => fields.values().any(contains_error),
        Type::Sum(constructors) => constructors.values().flatten().any(contains_error),
        Type::Arrow { from, to, .. } => contains_error(from) || contains_error(to),
        Type::Abstract { args, .. } => args.iter().any(|arg| match arg {
            crate::types::TypeArgument::Type(ty) => contains_error(ty),
            crate::types::TypeArgument::Size(_) => false,
        }),
        Type::Prim(_) | Type::Var(_) | Type::Param { .. } => false,
    }
}

/// A value matched by no row, if any: `rows` are pattern vectors whose
/// columns have `types`.
fn missing(rows: &[Vec<Simple>], types: &[Type]) -> Option<Vec<Witness>> {
    spec::recursion::with_stack(|| missing_inner(rows, types))
}

fn missing_inner(rows: &[Vec<Simple>], types: &[Type]) -> Option<Vec<Witness>> {
    let Some((first_type, rest_types)) = types.split_first() else {
        return if rows.is_empty() {
            Some(Vec::new())
        } else {
            None
        };
    };
    let heads: Vec<&Constructor> = rows
        .iter()
        .filter_map(|row| match &row[0] {
            Simple::Construct(constructor, _) => Some(constructor),
            Simple::Wild => None,
        })
        .collect();
    let complete = signature(first_type);
    if let Some(all) = &complete {
        if all
            .iter()
            .all(|(constructor, ..)| heads.contains(&constructor))
        {
            for (constructor, argument_types, field_names) in all {
                let arity = argument_types.len();
                let specialised = specialise(rows, constructor, arity);
                let mut column_types = argument_types.clone();
                column_types.extend_from_slice(rest_types);
                if let Some(mut witness) = missing(&specialised, &column_types) {
                    let rest = witness.split_off(arity);
                    let mut result = vec![Witness::Construct(
                        constructor.clone(),
                        witness,
                        field_names.clone(),
                    )];
                    result.extend(rest);
                    return Some(result);
                }
            }
            return None;
        }
    }
    let default: Vec<Vec<Simple>> = rows
        .iter()
        .filter(|row| matches!(row[0], Simple::Wild))
        .map(|row| row[1..].to_vec())
        .collect();
    let rest = missing(&default, rest_types)?;
    let head = match &complete {
        Some(all) if !heads.is_empty() => all
            .iter()
            .find(|(constructor, ..)| !heads.contains(&constructor))
            .map(|(constructor, argument_types, field_names)| {
                Witness::Construct(
                    constructor.clone(),
                    vec![Witness::Any; argument_types.len()],
                    field_names.clone(),
                )
            })
            .unwrap_or(Witness::Any),
        _ => Witness::Any,
    };
    let mut result = vec![head];
    result.extend(rest);
    Some(result)
}

fn specialise(rows: &[Vec<Simple>], constructor: &Constructor, arity: usize) -> Vec<Vec<Simple>> {
    rows.iter()
        .filter_map(|row| match &row[0] {
            Simple::Wild => {
                let mut new_row = vec![Simple::Wild; arity];
                new_row.extend_from_slice(&row[1..]);
                Some(new_row)
            }
            Simple::Construct(head, arguments)
                if head == constructor && arguments.len() == arity =>
            {
                let mut new_row = arguments.clone();
                new_row.extend_from_slice(&row[1..]);
                Some(new_row)
            }
            Simple::Construct(..) => None,
        })
        .collect()
}

/// The witness in source syntax; `nested` parenthesises constructor
/// applications inside payloads.
fn print_witness(witness: &Witness, nested: bool) -> String {
    match witness {
        Witness::Any => "_".to_string(),
        Witness::Construct(Constructor::Bool(value), ..) => value.to_string(),
        Witness::Construct(Constructor::Number(text), ..) => text.clone(),
        Witness::Construct(Constructor::Sum(name), arguments, _) => {
            if arguments.is_empty() && !nested {
                format!("#{name}")
            } else if arguments.is_empty() {
                format!("(#{name})")
            } else {
                let payload: Vec<String> =
                    arguments.iter().map(|a| print_witness(a, true)).collect();
                let text = format!("#{name} {}", payload.join(" "));
                if nested {
                    format!("({text})")
                } else {
                    text
                }
            }
        }
        Witness::Construct(Constructor::Record, arguments, fields) => {
            let is_tuple = fields.len() != 1
                && fields
                    .iter()
                    .enumerate()
                    .all(|(index, field)| field.0 == index.to_string());
            if is_tuple {
                let elements: Vec<String> =
                    arguments.iter().map(|a| print_witness(a, false)).collect();
                format!("({})", elements.join(", "))
            } else {
                let elements: Vec<String> = fields
                    .iter()
                    .zip(arguments)
                    .map(|(field, a)| format!("{} = {}", field.0, print_witness(a, false)))
                    .collect();
                format!("{{{}}}", elements.join(", "))
            }
        }
    }
}

impl Checker<'_> {
    /// Runs the postponed pattern checks of the definition just checked.
    pub(crate) fn check_pending_patterns(&mut self) -> Result<(), Diagnostic> {
        let pending = std::mem::take(&mut self.pending_pattern_checks);
        for check in pending {
            let ty = self.resolve_deep(&check.ty);
            if contains_error(&ty) {
                continue;
            }
            let resolved_types = vec![ty];
            let rows: Vec<Vec<Simple>> = check
                .patterns
                .iter()
                .map(|pat| vec![simplify(pat)])
                .collect();
            if let Some(witness) = missing(&rows, &resolved_types) {
                let example = print_witness(&witness[0], false);
                return Err(match check.site {
                    PatternSite::Match => Diagnostic::error(format!(
                        "unmatched cases in `match`: for example `{example}`"
                    ))
                    .with_code("non-exhaustive")
                    .with_primary(check.span, format!("`{example}` is not matched"))
                    .with_note(PaperRule::MatchExhaustive.citation())
                    .with_note("hint: add a case for it, or a final `case _ -> ...`"),
                    PatternSite::Binding => Diagnostic::error(format!(
                        "refutable pattern: it does not match `{example}`"
                    ))
                    .with_code("non-exhaustive")
                    .with_primary(check.span, format!("`{example}` is not matched"))
                    .with_note("patterns that bind values must match every value of their type; use `match` to distinguish cases"),
                });
            }
        }
        Ok(())
    }

    /// Postpones the check of `patterns` against `ty` to the end of the
    /// definition.
    pub(crate) fn postpone_pattern_check(
        &mut self,
        site: PatternSite,
        patterns: Vec<Pat>,
        ty: &Type,
        span: Span,
    ) {
        // Patterns made only of names and wildcards cannot fail: skip them.
        if site == PatternSite::Binding && patterns.iter().all(trivially_irrefutable) {
            return;
        }
        self.pending_pattern_checks.push(PendingPatternCheck {
            site,
            patterns,
            ty: ty.clone(),
            span,
        });
    }
}

fn trivially_irrefutable(pat: &Pat) -> bool {
    match pat {
        Pat::Var { .. } | Pat::Wildcard { .. } => true,
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => trivially_irrefutable(pat),
        Pat::Tuple { elements, .. } => elements.iter().all(trivially_irrefutable),
        Pat::Record { fields, .. } => fields.iter().all(|(_, pat)| trivially_irrefutable(pat)),
        Pat::Literal { .. } | Pat::Constructor { .. } => false,
    }
}
