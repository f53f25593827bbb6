//! How core types flatten into IR values (the representation decisions of
//! [`super`]): leaves, field and payload positions, entry-point layouts.

use std::collections::BTreeMap;
use std::ops::Range;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::Name;
use spec::value::PrimType;

use super::internal;
use crate::core::{self, FieldName, Size};
use crate::ir::{Layout, SUM_TAG_TYPE};

/// One IR value of a flattened core value: its element type and the core
/// dimensions of the arrays around it (outermost first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    pub prim: PrimType,
    pub dims: Vec<Size>,
}

/// The leaves of a first-order core type, in flattening order.
pub fn leaves(ty: &core::Type, span: Span) -> Result<Vec<Leaf>, Diagnostic> {
    let mut out = Vec::new();
    collect(ty, &[], &mut out, span)?;
    Ok(out)
}

fn collect(
    ty: &core::Type,
    outer: &[Size],
    out: &mut Vec<Leaf>,
    span: Span,
) -> Result<(), Diagnostic> {
    match ty {
        core::Type::Prim(p) => out.push(Leaf {
            prim: *p,
            dims: outer.to_vec(),
        }),
        core::Type::Array { size, element } => {
            let mut dims = outer.to_vec();
            dims.push(size.clone());
            collect(element, &dims, out, span)?;
        }
        core::Type::Record(fields) => {
            for field in fields.values() {
                collect(field, outer, out, span)?;
            }
        }
        core::Type::Sum(constructors) => {
            out.push(Leaf {
                prim: SUM_TAG_TYPE,
                dims: outer.to_vec(),
            });
            for payload in constructors.values() {
                for ty in payload {
                    collect(ty, outer, out, span)?;
                }
            }
        }
        core::Type::Param(_) => {
            return Err(internal(span, "a type parameter after monomorphisation"))
        }
        core::Type::Arrow { .. } => {
            return Err(internal(span, "a function type after defunctionalisation"))
        }
    }
    Ok(())
}

fn count(ty: &core::Type, span: Span) -> Result<usize, Diagnostic> {
    Ok(leaves(ty, span)?.len())
}

/// The positions of field `field`'s values among a record's.
pub fn field_range(
    fields: &BTreeMap<FieldName, core::Type>,
    field: &FieldName,
    span: Span,
) -> Result<Range<usize>, Diagnostic> {
    let mut start = 0;
    for (name, ty) in fields {
        let n = count(ty, span)?;
        if name == field {
            return Ok(start..start + n);
        }
        start += n;
    }
    Err(internal(span, &format!("no field `{}`", field.0)))
}

/// The positions of each payload component of constructor `name` among the
/// sum's values (after the tag).
pub fn payload_ranges(
    constructors: &BTreeMap<Name, Vec<core::Type>>,
    name: &Name,
    span: Span,
) -> Result<Vec<Range<usize>>, Diagnostic> {
    let mut start = 1;
    for (constructor, payload) in constructors {
        let mut ranges = Vec::new();
        for ty in payload {
            let n = count(ty, span)?;
            ranges.push(start..start + n);
            start += n;
        }
        if constructor == name {
            return Ok(ranges);
        }
    }
    Err(internal(span, &format!("no constructor `#{name}`")))
}

/// The entry-point layout of a first-order core type (the same flattening
/// order as [`leaves`]).
pub fn layout(ty: &core::Type, span: Span) -> Result<Layout, Diagnostic> {
    Ok(match ty {
        core::Type::Prim(p) => Layout::Prim(*p),
        core::Type::Array { .. } => {
            let mut rank = 0;
            let mut element = ty;
            while let core::Type::Array { element: inner, .. } = element {
                rank += 1;
                element = inner;
            }
            Layout::Array {
                rank,
                element: Box::new(layout(element, span)?),
            }
        }
        core::Type::Record(fields) => {
            let is_tuple = !fields.is_empty()
                && fields
                    .keys()
                    .enumerate()
                    .all(|(index, field)| *field == FieldName::position(index));
            if is_tuple || fields.is_empty() {
                Layout::Tuple(
                    fields
                        .values()
                        .map(|t| layout(t, span))
                        .collect::<Result<_, _>>()?,
                )
            } else {
                let ordered: Vec<(String, Layout)> = fields
                    .iter()
                    .map(|(field, t)| Ok((field.0.clone(), layout(t, span)?)))
                    .collect::<Result<_, Diagnostic>>()?;
                let mut sorted: Vec<&str> = ordered.iter().map(|(n, _)| n.as_str()).collect();
                sorted.sort_by(|a, b| spec::value::field_order(a, b));
                if sorted.iter().zip(&ordered).any(|(a, (b, _))| *a != b) {
                    return Err(super::unsupported(
                        span,
                        "an entry point record whose field order differs from the value format's",
                    ));
                }
                Layout::Record(ordered)
            }
        }
        core::Type::Sum(constructors) => Layout::Sum {
            constructors: constructors
                .iter()
                .map(|(name, payload)| {
                    Ok((
                        name.clone(),
                        payload
                            .iter()
                            .map(|t| layout(t, span))
                            .collect::<Result<_, Diagnostic>>()?,
                    ))
                })
                .collect::<Result<_, Diagnostic>>()?,
        },
        core::Type::Param(_) | core::Type::Arrow { .. } => {
            return Err(internal(span, "an entry point of a non-first-order type"))
        }
    })
}
