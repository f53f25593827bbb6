//! The one child-by-child rebuild of a surface [`TypeExp`].
//!
//! Every implementation rewrites type expressions (substituting
//! abbreviations' parameters, resolving names, closing definitions), and each
//! rewrite is one or two interesting cases plus "rebuild the node with its
//! children rewritten" for the rest. That rebuild is written once, here:
//! [`TypeExp::try_map_sizes_and_children`] is the general form (sizes,
//! children and the names a node binds around a child, with a context
//! threaded through both callbacks), and [`TypeExp::try_map_children`] and
//! [`TypeExp::map_children`] are the common cases (children only). The
//! rebuild is shallow: the callbacks decide whether to recurse.

use super::ast::{Name, SizeExp, SumConstructor, TypeArg, TypeExp};

impl TypeExp {
    /// This node rebuilt with each size `s` it holds directly (an array's
    /// size, an application's size arguments) replaced by `size(context, s)`
    /// and each child type `t` replaced by `child(context, t, bound)`, where
    /// `bound` are the names this node binds around that child (the
    /// parameter `n` of `(n: a) -> b` for `b`; the sizes of `?[n].t` for
    /// `t`). Sizes and children are visited in source order and the first
    /// error is returned. Names, binders and spans are kept; a
    /// [`TypeExp::Var`] has no parts and is returned as it is.
    ///
    /// The context is threaded through both callbacks so that both may use
    /// the same mutable state (a resolver, say) without borrowing it twice.
    pub fn try_map_sizes_and_children<Context, Error>(
        &self,
        context: &mut Context,
        mut size: impl FnMut(&mut Context, &SizeExp) -> Result<SizeExp, Error>,
        mut child: impl FnMut(&mut Context, &TypeExp, &[Name]) -> Result<TypeExp, Error>,
    ) -> Result<TypeExp, Error> {
        Ok(match self {
            TypeExp::Var(_) => self.clone(),
            TypeExp::Apply {
                constructor,
                args,
                span,
            } => {
                let mut mapped = Vec::with_capacity(args.len());
                for arg in args {
                    mapped.push(match arg {
                        TypeArg::Size { size: s, span } => TypeArg::Size {
                            size: size(context, s)?,
                            span: *span,
                        },
                        TypeArg::Type(ty) => TypeArg::Type(child(context, ty, &[])?),
                    });
                }
                TypeExp::Apply {
                    constructor: constructor.clone(),
                    args: mapped,
                    span: *span,
                }
            }
            TypeExp::Array {
                size: s,
                element,
                span,
            } => TypeExp::Array {
                size: size(context, s)?,
                element: Box::new(child(context, element, &[])?),
                span: *span,
            },
            TypeExp::Tuple { elements, span } => TypeExp::Tuple {
                elements: each_child(context, &mut child, elements)?,
                span: *span,
            },
            TypeExp::Record { fields, span } => {
                let mut mapped = Vec::with_capacity(fields.len());
                for (label, ty) in fields {
                    mapped.push((label.clone(), child(context, ty, &[])?));
                }
                TypeExp::Record {
                    fields: mapped,
                    span: *span,
                }
            }
            TypeExp::Arrow {
                param,
                from,
                to,
                span,
            } => {
                let from = child(context, from, &[])?;
                let to = child(context, to, param.as_slice())?;
                TypeExp::Arrow {
                    param: param.clone(),
                    from: Box::new(from),
                    to: Box::new(to),
                    span: *span,
                }
            }
            TypeExp::Sum { constructors, span } => {
                let mut mapped = Vec::with_capacity(constructors.len());
                for constructor in constructors {
                    mapped.push(SumConstructor {
                        name: constructor.name.clone(),
                        payload: each_child(context, &mut child, &constructor.payload)?,
                        span: constructor.span,
                    });
                }
                TypeExp::Sum {
                    constructors: mapped,
                    span: *span,
                }
            }
            TypeExp::Unique { ty, span } => TypeExp::Unique {
                ty: Box::new(child(context, ty, &[])?),
                span: *span,
            },
            TypeExp::Existential { sizes, ty, span } => TypeExp::Existential {
                sizes: sizes.clone(),
                ty: Box::new(child(context, ty, sizes)?),
                span: *span,
            },
        })
    }

    /// This node with each child type `t` replaced by `child(t)` (in source
    /// order; the first error); sizes, names, binders and spans kept.
    pub fn try_map_children<Error>(
        &self,
        mut child: impl FnMut(&TypeExp) -> Result<TypeExp, Error>,
    ) -> Result<TypeExp, Error> {
        self.try_map_sizes_and_children(
            &mut child,
            |_, size| Ok(size.clone()),
            |child, ty, _bound| child(ty),
        )
    }

    /// This node with each child type `t` replaced by `child(t)`; sizes,
    /// names, binders and spans kept.
    pub fn map_children(&self, mut child: impl FnMut(&TypeExp) -> TypeExp) -> TypeExp {
        let Ok(mapped) = self.try_map_children(|ty| Ok::<_, std::convert::Infallible>(child(ty)));
        mapped
    }
}

/// `child(context, t, [])` of each of `types`, in order; the first error.
fn each_child<Context, Error>(
    context: &mut Context,
    child: &mut impl FnMut(&mut Context, &TypeExp, &[Name]) -> Result<TypeExp, Error>,
    types: &[TypeExp],
) -> Result<Vec<TypeExp>, Error> {
    types.iter().map(|ty| child(context, ty, &[])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::ast::QualName;
    use crate::syntax::{parse_type, printer::print_type};

    fn parse(text: &str) -> TypeExp {
        parse_type(FileId(0), text).unwrap_or_else(|error| panic!("{text:?}: {error:?}"))
    }

    fn renamed(q: &QualName, from: &str, to: &str) -> QualName {
        QualName {
            name: if q.name == from { to } else { &q.name }.to_string(),
            ..q.clone()
        }
    }

    /// `ty` with every type name `a` renamed `b`, through `map_children`.
    fn rename(ty: &TypeExp) -> TypeExp {
        match ty {
            TypeExp::Var(q) => TypeExp::Var(renamed(q, "a", "b")),
            _ => ty.map_children(rename),
        }
    }

    /// `ty` with every size name `n` renamed `m` and every type name `a`
    /// renamed `b`, through `try_map_sizes_and_children`, recording in
    /// `visits` each size and child visited (with the names bound around
    /// it); an error at the type name `bad`.
    fn rename_sizes(ty: &TypeExp, visits: &mut Vec<String>) -> Result<TypeExp, String> {
        match ty {
            TypeExp::Var(q) if q.name == "bad" => Err("bad".to_string()),
            TypeExp::Var(_) => Ok(rename(ty)),
            _ => ty.try_map_sizes_and_children(
                visits,
                |visits, size| {
                    Ok(match size {
                        SizeExp::Named(q) => {
                            visits.push(format!("size {}", q.name));
                            SizeExp::Named(renamed(q, "n", "m"))
                        }
                        other => {
                            visits.push(format!("size {other:?}"));
                            other.clone()
                        }
                    })
                },
                |visits, child, bound| {
                    visits.push(format!("{} {bound:?}", print_type(child)));
                    rename_sizes(child, visits)
                },
            ),
        }
    }

    /// One case: `source` renamed by [`rename`]; renamed by [`rename_sizes`]
    /// (or its error), and every size and child that visited, in order.
    fn check(
        source: &str,
        names_renamed: &str,
        sizes_renamed: Result<&str, &str>,
        visits: &[&str],
    ) {
        let ty = parse(source);
        assert_eq!(
            print_type(&rename(&ty)),
            names_renamed,
            "map_children of {source:?}"
        );
        let mut seen = Vec::new();
        let result = rename_sizes(&ty, &mut seen).map(|ty| print_type(&ty));
        assert_eq!(
            result,
            sizes_renamed.map(str::to_string).map_err(str::to_string),
            "try_map_sizes_and_children of {source:?}"
        );
        assert_eq!(seen, visits, "visits of {source:?}");
    }

    #[test]
    fn every_kind_of_node_rebuilds_its_parts_in_source_order() {
        check("a", "b", Ok("b"), &[]);
        check("m.a", "m.b", Ok("m.b"), &[]);
        check(
            "t [n] a [] [3]",
            "t [n] b [] [3]",
            Ok("t [m] b [] [3]"),
            &["size n", "a []", "size Anonymous", "size Constant(3)"],
        );
        check("[n]a", "[n]b", Ok("[m]b"), &["size n", "a []"]);
        check(
            "(a, i32, a)",
            "(b, i32, b)",
            Ok("(b, i32, b)"),
            &["a []", "i32 []", "a []"],
        );
        check("()", "()", Ok("()"), &[]);
        check(
            "{x: a, y: [n]a}",
            "{x: b, y: [n]b}",
            Ok("{x: b, y: [m]b}"),
            &["a []", "[n]a []", "size n", "a []"],
        );
        check(
            "(k: a) -> [k]a",
            "(k: b) -> [k]b",
            Ok("(k: b) -> [k]b"),
            &["a []", "[k]a [\"k\"]", "size k", "a []"],
        );
        check("a -> a", "b -> b", Ok("b -> b"), &["a []", "a []"]);
        check(
            "#x a a | #y",
            "#x b b | #y",
            Ok("#x b b | #y"),
            &["a []", "a []"],
        );
        check(
            "*[n]a",
            "*[n]b",
            Ok("*[m]b"),
            &["[n]a []", "size n", "a []"],
        );
        check(
            "?[k][l].[k]a",
            "?[k][l].[k]b",
            Ok("?[k][l].[k]b"),
            &["[k]a [\"k\", \"l\"]", "size k", "a []"],
        );
    }

    #[test]
    fn the_first_error_in_source_order_is_returned() {
        check(
            "(i32, bad, bad)",
            "(i32, bad, bad)",
            Err("bad"),
            &["i32 []", "bad []"],
        );
        check(
            "{x: [n]bad, y: a}",
            "{x: [n]bad, y: b}",
            Err("bad"),
            &["[n]bad []", "size n", "bad []"],
        );
        check("bad -> a", "bad -> b", Err("bad"), &["bad []"]);
        check("t bad [n]", "t bad [n]", Err("bad"), &["bad []"]);
    }

    #[test]
    fn spans_and_binders_are_kept() {
        let ty = parse("(k: a) -> ?[l].[k][l]a");
        let renamed = rename(&ty);
        assert!(renamed.span().same_location(&ty.span()));
        let (
            TypeExp::Arrow { to: before, .. },
            TypeExp::Arrow {
                param, to: after, ..
            },
        ) = (&ty, &renamed)
        else {
            panic!("not two arrows: {ty:?} {renamed:?}");
        };
        assert_eq!(param.as_deref(), Some("k"));
        assert!(after.span().same_location(&before.span()));
        let TypeExp::Existential { sizes, .. } = after.as_ref() else {
            panic!("not an existential: {after:?}");
        };
        assert_eq!(sizes, &["l".to_string()]);
    }
}
