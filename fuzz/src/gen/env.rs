//! The typing environment a generator carries: values with their type
//! schemes, sizes in scope, type abbreviations, and structures (for `M.(e)`).
//!
//! Scopes are stacks: entering a binder pushes, leaving truncates to a mark,
//! so a later binding of the same name shadows an earlier one exactly as in
//! Futhark. Lookups only ever see the visible (unshadowed) bindings.

use super::build::{qual, span};
use super::types::{Scheme, Size, Ty};
use spec::syntax::ast::{SizeExp, TypeArg, TypeExp};

/// A value in scope: `qualifiers.name : scheme`.
#[derive(Clone, Debug)]
pub struct ValueBinding {
    pub qualifiers: Vec<String>,
    pub name: String,
    pub scheme: Scheme,
    /// A local of primitive type that a later `let` may shadow (never a
    /// function, a size, a loop counter or the only witness of a type).
    pub shadowable: bool,
}

/// `type name params = ty` at top level.
#[derive(Clone, Debug)]
pub struct Abbreviation {
    pub name: String,
    /// At most one parameter `'a`, standing for both elements of a pair.
    pub parameter: Option<String>,
    pub ty: Ty,
}

/// A structure in scope whose values `M.(e)` may open.
#[derive(Clone, Debug)]
pub struct StructureInfo {
    pub path: Vec<String>,
    pub values: Vec<(String, Scheme)>,
}

/// The environment; see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub values: Vec<ValueBinding>,
    /// Named sizes in scope (each is also an `i64` value binding).
    pub sizes: Vec<String>,
    /// Variables known to hold non-negative `i64`s (loop counters, sizes).
    pub index_bases: Vec<String>,
    pub abbreviations: Vec<Abbreviation>,
    /// Sum types in scope (each named by an abbreviation).
    pub sum_types: Vec<Ty>,
    pub structures: Vec<StructureInfo>,
    /// Abstract types with the carrier their structure hides (used by the
    /// mutator to break opaque ascription).
    pub carriers: Vec<(Vec<String>, Ty)>,
}

/// Marks for [`Env::truncate`].
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    values: usize,
    sizes: usize,
    index_bases: usize,
    structures: usize,
}

impl Env {
    pub fn mark(&self) -> Mark {
        Mark {
            values: self.values.len(),
            sizes: self.sizes.len(),
            index_bases: self.index_bases.len(),
            structures: self.structures.len(),
        }
    }

    pub fn truncate(&mut self, mark: Mark) {
        self.values.truncate(mark.values);
        self.sizes.truncate(mark.sizes);
        self.index_bases.truncate(mark.index_bases);
        self.structures.truncate(mark.structures);
    }

    pub fn bind(&mut self, name: &str, ty: Ty, shadowable: bool) {
        self.values.push(ValueBinding {
            qualifiers: Vec::new(),
            name: name.to_string(),
            scheme: Scheme::mono(ty),
            shadowable,
        });
    }

    pub fn bind_scheme(&mut self, qualifiers: Vec<String>, name: &str, scheme: Scheme) {
        self.values.push(ValueBinding {
            qualifiers,
            name: name.to_string(),
            scheme,
            shadowable: false,
        });
    }

    pub fn bind_size(&mut self, name: &str) {
        self.sizes.push(name.to_string());
        self.index_bases.push(name.to_string());
        self.bind(name, super::types::i64_ty(), false);
    }

    /// The visible bindings, innermost first.
    pub fn visible(&self) -> Vec<&ValueBinding> {
        let mut seen: Vec<(&[String], &str)> = Vec::new();
        let mut out = Vec::new();
        for binding in self.values.iter().rev() {
            let key = (binding.qualifiers.as_slice(), binding.name.as_str());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            out.push(binding);
        }
        out
    }

    /// Visible monomorphic variables whose type fits `ty`.
    pub fn variables_of(&self, ty: &Ty) -> Vec<&ValueBinding> {
        self.visible()
            .into_iter()
            .filter(|b| b.scheme.is_mono() && b.scheme.ty.fits(ty))
            .collect()
    }

    /// Whether a name is visible unqualified.
    pub fn is_visible(&self, name: &str) -> bool {
        self.values
            .iter()
            .any(|b| b.qualifiers.is_empty() && b.name == name)
    }

    /// Whether a value of type `ty` can always be built here: primitive and
    /// structural types always; type parameters and abstract types when a
    /// variable of that type, or a function from concrete arguments to it, is
    /// visible.
    pub fn inhabited(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Prim(_) => true,
            Ty::Array(size, element) => self.size_buildable(size) && self.inhabited(element),
            Ty::Tuple(elements) => elements.iter().all(|t| self.inhabited(t)),
            Ty::Record(fields) => fields.iter().all(|(_, t)| self.inhabited(t)),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .any(|(_, payload)| payload.iter().all(|t| self.inhabited(t))),
            Ty::Arrow(_, to) => self.inhabited(to),
            Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => {
                !self.opaque_witnesses(ty).is_empty()
            }
        }
    }

    pub fn size_buildable(&self, size: &Size) -> bool {
        match size {
            Size::Const(_) | Size::Unknown => true,
            Size::Named(name) => self.sizes.contains(name),
        }
    }

    /// Visible values that build a value of the opaque type `ty`: variables
    /// of that type, and monomorphic functions from concrete types to it.
    pub fn opaque_witnesses(&self, ty: &Ty) -> Vec<&ValueBinding> {
        self.visible()
            .into_iter()
            .filter(|b| {
                if !b.scheme.is_mono() {
                    return false;
                }
                let (params, result) = b.scheme.ty.uncurry();
                result == ty
                    && params
                        .iter()
                        .all(|p| !p.has_opaque_part() && p.order_zero() && !p.has_unknown_size())
            })
            .collect()
    }

    /// The surface type for `ty`, using abbreviations where one matches.
    pub fn type_exp(&self, ty: &Ty) -> TypeExp {
        match ty {
            Ty::Prim(prim) => TypeExp::Var(qual(&[], prim.name())),
            Ty::Array(size, element) => TypeExp::Array {
                size: match size {
                    Size::Const(k) => SizeExp::Constant(*k),
                    Size::Named(name) => SizeExp::Named(qual(&[], name)),
                    Size::Unknown => SizeExp::Anonymous,
                },
                element: Box::new(self.type_exp(element)),
                span: span(),
            },
            Ty::Sum { abbreviation, .. } => TypeExp::Var(qual(&[], abbreviation)),
            Ty::Param(name) | Ty::LiftedParam(name) => TypeExp::Var(qual(&[], name)),
            Ty::Abstract(path) => {
                let (name, qualifiers) = path.split_last().expect("abstract path is not empty");
                TypeExp::Var(qual(qualifiers, name))
            }
            Ty::Arrow(from, to) => TypeExp::Arrow {
                param: None,
                from: Box::new(self.type_exp(from)),
                to: Box::new(self.type_exp(to)),
                span: span(),
            },
            Ty::Tuple(elements) => {
                if let Some(abbreviated) = self.abbreviated(ty) {
                    return abbreviated;
                }
                TypeExp::Tuple {
                    elements: elements.iter().map(|t| self.type_exp(t)).collect(),
                    span: span(),
                }
            }
            Ty::Record(fields) => {
                if let Some(abbreviated) = self.abbreviated(ty) {
                    return abbreviated;
                }
                TypeExp::Record {
                    fields: fields
                        .iter()
                        .map(|(n, t)| (n.clone(), self.type_exp(t)))
                        .collect(),
                    span: span(),
                }
            }
        }
    }

    fn abbreviated(&self, ty: &Ty) -> Option<TypeExp> {
        for abbreviation in self.abbreviations.iter().rev() {
            match &abbreviation.parameter {
                None if abbreviation.ty == *ty => {
                    return Some(TypeExp::Var(qual(&[], &abbreviation.name)));
                }
                Some(_) => {
                    if let Ty::Tuple(elements) = ty {
                        if elements.len() == 2
                            && elements[0] == elements[1]
                            && elements[0].order_zero()
                            && !elements[0].has_unknown_size()
                        {
                            return Some(TypeExp::Apply {
                                constructor: qual(&[], &abbreviation.name),
                                args: vec![TypeArg::Type(self.type_exp(&elements[0]))],
                                span: span(),
                            });
                        }
                    }
                }
                None => {}
            }
        }
        None
    }
}
