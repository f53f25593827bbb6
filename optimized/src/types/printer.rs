//! Types printed in Futhark's source syntax: `[n]i32 -> (i32, bool)`,
//! `{x: f64, y: f64}`, `#some i32 | #none`, `(n: i64) -> [n]i64`.
//!
//! The printer expects types whose bound unification variables have been
//! substituted away (see `Substitution::resolve_deep` in the type checker).
//! What is still a variable prints as `t0`, `t1`, ... numbered in order of first
//! appearance within one [`TypePrinter`], so the expected and the found type of a
//! message share their names. Flexible and unknown sizes print as `[]`.

use std::collections::HashMap;
use std::fmt::Write;

use super::{Size, Type, TypeVarId};

/// How tightly a type must bind where it is printed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Position {
    /// Anywhere a whole type may stand (the right of `->`, inside brackets).
    Top,
    /// The left of `->`: arrows need parentheses.
    ArrowParam,
    /// An array element: arrows and sums need parentheses.
    ArrayElement,
    /// A constructor payload: only atoms (names, parenthesised types, records).
    Atom,
}

/// Prints types, naming unresolved variables consistently across calls.
#[derive(Default)]
pub struct TypePrinter {
    variable_names: HashMap<TypeVarId, String>,
}

impl TypePrinter {
    pub fn new() -> TypePrinter {
        TypePrinter::default()
    }

    pub fn print(&mut self, ty: &Type) -> String {
        let mut out = String::new();
        self.write(&mut out, ty, Position::Top);
        out
    }

    fn variable_name(&mut self, id: TypeVarId) -> String {
        let next = self.variable_names.len();
        self.variable_names
            .entry(id)
            .or_insert_with(|| format!("t{next}"))
            .clone()
    }

    fn write(&mut self, out: &mut String, ty: &Type, position: Position) {
        spec::recursion::with_stack(|| self.write_inner(out, ty, position))
    }

    fn write_inner(&mut self, out: &mut String, ty: &Type, position: Position) {
        match ty {
            Type::Prim(prim) => out.push_str(prim.name()),
            Type::Var(id) => {
                let name = self.variable_name(*id);
                out.push_str(&name);
            }
            Type::Param { name, .. } => out.push_str(&name.name),
            Type::Abstract { name, args, .. } => {
                let parenthesise = position == Position::Atom && !args.is_empty();
                if parenthesise {
                    out.push('(');
                }
                out.push_str(&name.name);
                for arg in args.iter() {
                    out.push(' ');
                    match arg {
                        super::TypeArgument::Type(ty) => self.write(out, ty, Position::Atom),
                        super::TypeArgument::Size(size) => write_size(out, size),
                    }
                }
                if parenthesise {
                    out.push(')');
                }
            }
            Type::Error => out.push_str("<error>"),
            Type::Array { size, element } => {
                let parenthesise = position == Position::Atom;
                if parenthesise {
                    out.push('(');
                }
                write_size(out, size);
                self.write(out, element, Position::ArrayElement);
                if parenthesise {
                    out.push(')');
                }
            }
            Type::Record(fields) => {
                if let Some(elements) = Type::tuple_elements(fields) {
                    out.push('(');
                    for (index, element) in elements.into_iter().enumerate() {
                        if index > 0 {
                            out.push_str(", ");
                        }
                        self.write(out, element, Position::Top);
                    }
                    out.push(')');
                } else {
                    out.push('{');
                    for (index, (field, ty)) in fields.iter().enumerate() {
                        if index > 0 {
                            out.push_str(", ");
                        }
                        let _ = write!(out, "{}: ", field.0);
                        self.write(out, ty, Position::Top);
                    }
                    out.push('}');
                }
            }
            Type::Sum(constructors) => {
                let parenthesise = position > Position::Top;
                if parenthesise {
                    out.push('(');
                }
                for (index, (name, payload)) in constructors.iter().enumerate() {
                    if index > 0 {
                        out.push_str(" | ");
                    }
                    let _ = write!(out, "#{name}");
                    for ty in payload {
                        out.push(' ');
                        self.write(out, ty, Position::Atom);
                    }
                }
                if parenthesise {
                    out.push(')');
                }
            }
            Type::Arrow { param, from, to } => {
                let parenthesise = position > Position::Top;
                if parenthesise {
                    out.push('(');
                }
                match param {
                    Some(param) => {
                        let _ = write!(out, "({}: ", param.name);
                        self.write(out, from, Position::Top);
                        out.push(')');
                    }
                    None => self.write(out, from, Position::ArrowParam),
                }
                out.push_str(" -> ");
                self.write(out, to, Position::Top);
                if parenthesise {
                    out.push(')');
                }
            }
        }
    }
}

fn write_size(out: &mut String, size: &Size) {
    match size {
        Size::Constant(value) => {
            let _ = write!(out, "[{value}]");
        }
        Size::Rigid(name) if !name.name.is_empty() => {
            let _ = write!(out, "[{}]", name.name);
        }
        Size::Rigid(_) | Size::Flexible(_) | Size::Unknown => out.push_str("[]"),
    }
}

/// Prints one type on its own.
pub fn print_type(ty: &Type) -> String {
    TypePrinter::new().print(ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PrimType, RigidName};
    use std::collections::BTreeMap;
    use std::rc::Rc;

    fn i32() -> Type {
        Type::Prim(PrimType::I32)
    }

    #[test]
    fn arrows_associate_right_and_parenthesise_left() {
        let inner = Type::arrow(i32(), i32());
        assert_eq!(
            print_type(&Type::arrow(inner.clone(), i32())),
            "(i32 -> i32) -> i32"
        );
        assert_eq!(print_type(&Type::arrow(i32(), inner)), "i32 -> i32 -> i32");
    }

    #[test]
    fn tuples_records_arrays_and_sums() {
        let n = Size::Rigid(RigidName {
            id: 0,
            name: "n".into(),
        });
        let pair = Type::tuple(vec![i32(), Type::BOOL]);
        assert_eq!(print_type(&Type::array(n.clone(), pair)), "[n](i32, bool)");
        assert_eq!(print_type(&Type::unit()), "()");
        let mut constructors = BTreeMap::new();
        constructors.insert("some".to_string(), vec![Type::array(n, i32())]);
        constructors.insert("none".to_string(), vec![]);
        let sum = Type::Sum(Rc::new(constructors));
        assert_eq!(print_type(&sum), "#none | #some ([n]i32)");
        assert_eq!(
            print_type(&Type::array(Size::Constant(3), sum)),
            "[3](#none | #some ([n]i32))"
        );
    }
}
