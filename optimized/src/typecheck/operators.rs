//! The built-in infix and prefix operators, overloaded over primitive types as
//! in Futhark: `+ - * / % **` on every numeric type, `// %%` and the bitwise
//! `& | ^ << >> >>>` on integers, `< <= > >=` on every primitive type, `== !=`
//! on every type without functions, `&& ||` on `bool`, and the pipes `|>`,
//! `<|`. A user definition of the same name shadows the built-in.

use spec::source::Span;
use spec::syntax::ast::Liftedness;

use super::rules::PaperRule;
use super::unify::Constraint;
use super::Checker;
use crate::types::{PrimSet, Type};

/// The typing of a built-in operator.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BuiltinOperator {
    /// `t -> t -> t` for `t` in the set.
    Arithmetic(PrimSet),
    /// `t -> t -> bool` for `t` in the set.
    Comparison(PrimSet),
    /// `t -> t -> bool` for `t` without functions.
    Equality,
    /// `bool -> bool -> bool`.
    Logical,
    /// `a -> (a -> b) -> b`.
    PipeForward,
    /// `(a -> b) -> a -> b`.
    PipeBackward,
}

pub(crate) fn builtin_operator(symbol: &str) -> Option<BuiltinOperator> {
    Some(match symbol {
        "+" | "-" | "*" | "/" | "%" | "**" => BuiltinOperator::Arithmetic(PrimSet::numeric()),
        "//" | "%%" | "&" | "|" | "^" | "<<" | ">>" | ">>>" => {
            BuiltinOperator::Arithmetic(PrimSet::integers())
        }
        "<" | "<=" | ">" | ">=" => BuiltinOperator::Comparison(PrimSet::all()),
        "==" | "!=" => BuiltinOperator::Equality,
        "&&" | "||" => BuiltinOperator::Logical,
        "|>" => BuiltinOperator::PipeForward,
        "<|" => BuiltinOperator::PipeBackward,
        _ => return None,
    })
}

impl Checker<'_> {
    /// A fresh variable for the operands of an overloaded operator.
    pub(crate) fn overloaded_var(&mut self, allowed: PrimSet, what: String, origin: Span) -> Type {
        self.subst.fresh_type_var(
            self.level,
            Liftedness::Unlifted,
            Constraint::Overloaded { allowed, what },
            origin,
        )
    }

    /// The (fresh) type of the built-in operator `symbol` used at `span`.
    pub(crate) fn builtin_operator_type(
        &mut self,
        operator: BuiltinOperator,
        symbol: &str,
        span: Span,
    ) -> Type {
        let what = format!("the operands of `{symbol}`");
        let binary = |operand: Type, result: Type| {
            Type::arrow(operand.clone(), Type::arrow(operand, result))
        };
        match operator {
            BuiltinOperator::Arithmetic(allowed) => {
                let operand = self.overloaded_var(allowed, what, span);
                binary(operand.clone(), operand)
            }
            BuiltinOperator::Comparison(allowed) => {
                let operand = self.overloaded_var(allowed, what, span);
                binary(operand, Type::BOOL)
            }
            BuiltinOperator::Equality => {
                self.record_order_zero_origin(span, PaperRule::BinOp, None);
                let operand = self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Unlifted,
                    Constraint::None,
                    span,
                );
                binary(operand, Type::BOOL)
            }
            BuiltinOperator::Logical => binary(Type::BOOL, Type::BOOL),
            BuiltinOperator::PipeForward => {
                let a = self.fresh_var(span);
                let b = self.fresh_var(span);
                Type::arrow(a.clone(), Type::arrow(Type::arrow(a, b.clone()), b))
            }
            BuiltinOperator::PipeBackward => {
                let a = self.fresh_var(span);
                let b = self.fresh_var(span);
                Type::arrow(Type::arrow(a.clone(), b.clone()), Type::arrow(a, b))
            }
        }
    }
}
