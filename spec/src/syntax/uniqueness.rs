//! Extension (proofs-notes/uniqueness.md, §2): the uniqueness a parameter
//! pattern or a return type declares by its `*`s, read once for both
//! implementations, which translate it into their own `Uniqueness`.
//!
//! `*t` declares the whole value unique; a tuple or record declares each
//! component separately (tuple components are labelled by position, `0`,
//! `1`, …, as record fields); `?[n].t` declares what `t` declares. A
//! parameter pattern declares what its ascription declares, and where the
//! ascription declares nothing, what the pattern under it declares
//! (`((xs: *[]i32) : []i32)` is a unique parameter).

use super::ast::{Name, Pat, TypeExp};
use std::collections::BTreeMap;

/// What a surface pattern or type declares about consumption.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DeclaredUniqueness {
    /// No `*`.
    #[default]
    Nonunique,
    /// `*`: the whole value.
    Unique,
    /// A tuple or record some of whose components carry a `*` (only those
    /// are listed; every listed component declares something).
    Components(BTreeMap<Name, DeclaredUniqueness>),
}

impl DeclaredUniqueness {
    /// The declaration of a type expression (a function's return type).
    pub fn of_type(ty: &TypeExp) -> DeclaredUniqueness {
        match ty {
            TypeExp::Unique { .. } => DeclaredUniqueness::Unique,
            TypeExp::Existential { ty, .. } => DeclaredUniqueness::of_type(ty),
            TypeExp::Tuple { elements, .. } => DeclaredUniqueness::of_components(
                elements
                    .iter()
                    .enumerate()
                    .map(|(index, element)| (index.to_string(), Self::of_type(element))),
            ),
            TypeExp::Record { fields, .. } => DeclaredUniqueness::of_components(
                fields
                    .iter()
                    .map(|(label, field)| (label.clone(), Self::of_type(field))),
            ),
            _ => DeclaredUniqueness::Nonunique,
        }
    }

    /// The declaration of a parameter pattern.
    pub fn of_pattern(pat: &Pat) -> DeclaredUniqueness {
        match pat {
            Pat::Ascribe { pat, ty, .. } => match DeclaredUniqueness::of_type(ty) {
                DeclaredUniqueness::Nonunique => DeclaredUniqueness::of_pattern(pat),
                declared => declared,
            },
            Pat::Attr { pat, .. } => DeclaredUniqueness::of_pattern(pat),
            Pat::Tuple { elements, .. } => DeclaredUniqueness::of_components(
                elements
                    .iter()
                    .enumerate()
                    .map(|(index, element)| (index.to_string(), Self::of_pattern(element))),
            ),
            Pat::Record { fields, .. } => DeclaredUniqueness::of_components(
                fields
                    .iter()
                    .map(|(label, field)| (label.clone(), Self::of_pattern(field))),
            ),
            _ => DeclaredUniqueness::Nonunique,
        }
    }

    fn of_components(
        components: impl Iterator<Item = (Name, DeclaredUniqueness)>,
    ) -> DeclaredUniqueness {
        let components: BTreeMap<Name, DeclaredUniqueness> = components
            .filter(|(_, declared)| *declared != DeclaredUniqueness::Nonunique)
            .collect();
        if components.is_empty() {
            DeclaredUniqueness::Nonunique
        } else {
            DeclaredUniqueness::Components(components)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;
    use crate::syntax::{parse_pat, parse_type};

    fn of_type(text: &str) -> DeclaredUniqueness {
        let mut sources = SourceMap::new();
        let file = sources.add("t.fut", text);
        DeclaredUniqueness::of_type(&parse_type(file, text).expect("a type"))
    }

    fn of_pattern(text: &str) -> DeclaredUniqueness {
        let mut sources = SourceMap::new();
        let file = sources.add("p.fut", text);
        DeclaredUniqueness::of_pattern(&parse_pat(file, text).expect("a pattern"))
    }

    fn components(entries: &[(&str, DeclaredUniqueness)]) -> DeclaredUniqueness {
        DeclaredUniqueness::Components(
            entries
                .iter()
                .map(|(label, declared)| (label.to_string(), declared.clone()))
                .collect(),
        )
    }

    #[test]
    fn types_declare_their_stars_by_component() {
        use DeclaredUniqueness::{Nonunique, Unique};
        assert_eq!(of_type("[]i32"), Nonunique);
        assert_eq!(of_type("*[]i32"), Unique);
        assert_eq!(of_type("?[m].*[m]i32"), Unique);
        assert_eq!(of_type("([]i32, *[]i32)"), components(&[("1", Unique)]));
        assert_eq!(of_type("{a: *[]i32, b: i32}"), components(&[("a", Unique)]));
        assert_eq!(of_type("([]i32, {b: []f32})"), Nonunique);
    }

    #[test]
    fn patterns_declare_their_ascriptions_or_what_lies_under_them() {
        use DeclaredUniqueness::{Nonunique, Unique};
        assert_eq!(of_pattern("xs"), Nonunique);
        assert_eq!(of_pattern("(xs: *[]i32)"), Unique);
        assert_eq!(of_pattern("((xs: *[]i32) : []i32)"), Unique);
        assert_eq!(
            of_pattern("(a: []i32, b: *[]i32)"),
            components(&[("1", Unique)])
        );
        assert_eq!(
            of_pattern("{x = (x: *[]i32), y}"),
            components(&[("x", Unique)])
        );
    }
}
