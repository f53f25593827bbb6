//! Fixity of infix operators, shared by the parser and the printer.
//!
//! Futhark gives a user-defined operator the fixity of the longest built-in
//! operator that is a prefix of it (`+^` binds like `+`, `>>=` like `>>`). The
//! levels, from loosest to tightest, follow the implementation of Futhark's
//! parser (its documentation's table differs for `|>`/`<|`; real programs
//! rely on the implementation):
//!
//! | level | associativity | operators                                  |
//! |-------|---------------|--------------------------------------------|
//! | 1     | left          | `` `name` ``                               |
//! | 2     | left          | `|>…`                                      |
//! | 3     | right         | `<|…`                                      |
//! | 4     | left          | `||…`                                      |
//! | 5     | left          | `&&…`                                      |
//! | 6     | left          | `<=… >=… >… <… ==… !=… !… =…`              |
//! | 7     | left          | `&… ^… |…`                                 |
//! | 8     | left          | `<<… >>…`                                  |
//! | 9     | left          | `+… -…`                                    |
//! | 10    | left          | `*… /… %… //… %%…`                         |
//! | 11    | left          | `**…`                                      |
//!
//! Prefix `-` and `!` bind tighter than every infix operator, and application
//! (juxtaposition) tighter still.

use super::ast::BinOp;

/// Which side an operator chain groups on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assoc {
    Left,
    Right,
}

/// Binding strength (`level`, higher binds tighter) and associativity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixity {
    pub level: u8,
    pub assoc: Assoc,
}

/// The characters an operator symbol may start with.
pub const SYMBOL_START_CHARS: &str = "+-*/%=!><&^|";

/// Whether `c` may continue an operator symbol (`.` may, but not start one).
pub fn is_symbol_char(c: char) -> bool {
    SYMBOL_START_CHARS.contains(c) || c == '.'
}

/// Whether `name` is an operator symbol rather than an identifier.
pub fn is_operator_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| SYMBOL_START_CHARS.contains(c))
}

/// Built-in operator prefixes, longest first, with their fixities.
const PREFIXES: &[(&str, u8, Assoc)] = &[
    ("|>", 2, Assoc::Left),
    ("<|", 3, Assoc::Right),
    ("||", 4, Assoc::Left),
    ("&&", 5, Assoc::Left),
    ("<=", 6, Assoc::Left),
    (">=", 6, Assoc::Left),
    ("==", 6, Assoc::Left),
    ("!=", 6, Assoc::Left),
    ("<<", 8, Assoc::Left),
    (">>", 8, Assoc::Left),
    ("//", 10, Assoc::Left),
    ("%%", 10, Assoc::Left),
    ("**", 11, Assoc::Left),
    ("<", 6, Assoc::Left),
    (">", 6, Assoc::Left),
    ("!", 6, Assoc::Left),
    ("=", 6, Assoc::Left),
    ("&", 7, Assoc::Left),
    ("^", 7, Assoc::Left),
    ("|", 7, Assoc::Left),
    ("+", 9, Assoc::Left),
    ("-", 9, Assoc::Left),
    ("*", 10, Assoc::Left),
    ("/", 10, Assoc::Left),
    ("%", 10, Assoc::Left),
];

/// Fixity of a backticked name.
pub const BACKTICK_FIXITY: Fixity = Fixity {
    level: 1,
    assoc: Assoc::Left,
};

/// The tightest infix level; prefix operators bind tighter than this.
pub const MAX_INFIX_LEVEL: u8 = 11;

/// Fixity of an operator symbol (unqualified part of the name).
pub fn symbol_fixity(symbol: &str) -> Fixity {
    PREFIXES
        .iter()
        .find(|(prefix, _, _)| symbol.starts_with(prefix))
        .map(|&(_, level, assoc)| Fixity { level, assoc })
        // Every operator symbol starts with one of the single-character
        // prefixes above, so this is reached only for malformed names.
        .unwrap_or(Fixity {
            level: 6,
            assoc: Assoc::Left,
        })
}

/// Fixity of an infix operator in an expression.
pub fn fixity(op: &BinOp) -> Fixity {
    match op {
        BinOp::Symbol(name) => symbol_fixity(&name.name),
        BinOp::Backtick(_) => BACKTICK_FIXITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(symbol: &str, level: u8, assoc: Assoc) {
        assert_eq!(symbol_fixity(symbol), Fixity { level, assoc }, "{symbol}");
    }

    #[test]
    fn longest_builtin_prefix_decides() {
        check("+", 9, Assoc::Left);
        check("+^", 9, Assoc::Left);
        check(">>=", 8, Assoc::Left);
        check(">", 6, Assoc::Left);
        check("|>", 2, Assoc::Left);
        check("|", 7, Assoc::Left);
        check("<|", 3, Assoc::Right);
        check("<=<", 6, Assoc::Left);
        check("**", 11, Assoc::Left);
        check("*", 10, Assoc::Left);
        check("!=", 6, Assoc::Left);
        check("!+", 6, Assoc::Left);
        check("%%", 10, Assoc::Left);
    }
}
