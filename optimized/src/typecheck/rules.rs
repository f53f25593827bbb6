//! The TFP'18 typing rules that the checker's diagnostics cite.
//!
//! DESIGN.md asks every type error to name the paper rule that failed, as the
//! reference does (`reference/src/core/typing.rs`). Each restriction the
//! checker enforces maps to one rule here, with the requirement it states in
//! words; [`PaperRule::citation`] is the note a diagnostic carries
//! ("TFP'18 rule T-If: ..."), so a reader holding the paper finds the rule.

use std::collections::HashMap;

use spec::source::Span;

/// A TFP'18 typing rule (or one of the reference's extensions of the paper's
/// core, named the way the reference names them) that a diagnostic cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PaperRule {
    If,
    Match,
    MatchExhaustive,
    Array,
    Index,
    Loop,
    While,
    Entry,
    Map,
    Reduce,
    Scan,
    Filter,
    ReduceByIndex,
    BinOp,
    VarInst,
    /// Not a typing rule: §5.1's lifted types, which a type declared
    /// without `^` is not.
    LiftedTypes,
}

impl PaperRule {
    /// The rule's name in the paper (and in the reference's messages).
    pub(crate) fn name(self) -> &'static str {
        match self {
            PaperRule::If => "T-If",
            PaperRule::Match => "T-Match",
            PaperRule::MatchExhaustive => "T-MatchExhaustive",
            PaperRule::Array => "T-Array",
            PaperRule::Index => "T-Index",
            PaperRule::Loop => "T-Loop",
            PaperRule::While => "T-While",
            PaperRule::Entry => "T-Entry",
            PaperRule::Map => "T-Map",
            PaperRule::Reduce => "T-Reduce",
            PaperRule::Scan => "T-Scan",
            PaperRule::Filter => "T-Filter",
            PaperRule::ReduceByIndex => "T-ReduceByIndex",
            PaperRule::BinOp => "T-BinOp",
            PaperRule::VarInst => "T-VarInst",
            PaperRule::LiftedTypes => "§5.1",
        }
    }

    /// What the rule requires, in words.
    fn requirement(self) -> &'static str {
        match self {
            PaperRule::If => "the branches of an `if` must be of order zero",
            PaperRule::Match => "the cases of a `match` must be of order zero",
            PaperRule::MatchExhaustive => {
                "the cases of a `match` must cover every value of the matched type"
            }
            PaperRule::Array => {
                "arrays of functions are not allowed: the elements of an array must be of order zero"
            }
            PaperRule::Index => {
                "only arrays are indexed, and arrays of functions are not allowed"
            }
            PaperRule::Loop => "the parameter of a `for` loop must be of order zero",
            PaperRule::While => "the parameter of a `while` loop must be of order zero",
            PaperRule::Entry => {
                "entry points must be first-order: their parameters and result must be of order zero"
            }
            PaperRule::Map => {
                "the function given to `map` must return values of order zero, since they form an array (arrays of functions are not allowed)"
            }
            PaperRule::Reduce => {
                "the elements that `reduce` combines must be of order zero (arrays of functions are not allowed)"
            }
            PaperRule::Scan => {
                "the elements that `scan` combines must be of order zero (arrays of functions are not allowed)"
            }
            PaperRule::Filter => {
                "the elements that `filter` keeps must be of order zero (arrays of functions are not allowed)"
            }
            PaperRule::ReduceByIndex => {
                "the elements that `reduce_by_index` combines must be of order zero (arrays of functions are not allowed)"
            }
            PaperRule::BinOp => "the values compared by `==` and `!=` must be of order zero",
            PaperRule::VarInst => {
                "a type parameter written without `^` may only be instantiated with a type of order zero"
            }
            PaperRule::LiftedTypes => {
                "a type declared without `^` stands only for types of order zero"
            }
        }
    }

    /// The note citing the rule: "TFP'18 rule T-If: the branches ...".
    pub(crate) fn citation(self) -> String {
        match self {
            PaperRule::LiftedTypes => format!(
                "TFP'18 {} (lifted types): {}",
                self.name(),
                self.requirement()
            ),
            _ => format!("TFP'18 rule {}: {}", self.name(), self.requirement()),
        }
    }

    /// The note citing an order-zero rule that `offending` (in source syntax)
    /// breaks.
    pub(crate) fn order_zero_citation(self, offending: &str) -> String {
        format!(
            "{}; `{offending}` is not of order zero (it is or contains a function type or a lifted type parameter)",
            self.citation()
        )
    }

    /// The rule behind the order-zero type parameters of the built-in
    /// function `name` (`map`'s result is an array, `reduce`'s operands are
    /// array elements, `replicate` builds an array), or `None` for a name
    /// whose parameters are not array elements (`copy`): its instantiation is
    /// T-VarInst's.
    pub(crate) fn of_builtin(name: &str) -> Option<PaperRule> {
        Some(match name {
            "map" | "map1" | "map2" | "map3" | "map4" | "map5" => PaperRule::Map,
            "reduce" | "reduce_comm" => PaperRule::Reduce,
            "scan" => PaperRule::Scan,
            "filter" | "partition" => PaperRule::Filter,
            "reduce_by_index" => PaperRule::ReduceByIndex,
            "scatter" | "replicate" | "zip" | "zip2" | "zip3" | "zip4" | "zip5" | "unzip"
            | "unzip2" | "unzip3" | "unzip4" | "unzip5" | "length" | "concat" | "++"
            | "flatten" | "unflatten" | "transpose" | "reverse" | "rotate" => PaperRule::Array,
            _ => return None,
        })
    }
}

/// Why a type variable created at some location excludes functions: the rule
/// to cite when a function type meets it, and, for an instantiated
/// polymorphic function, that function's name.
#[derive(Clone, Debug)]
pub(crate) struct OrderZeroOrigin {
    pub(crate) rule: PaperRule,
    pub(crate) function: Option<String>,
}

/// The [`OrderZeroOrigin`] of the order-zero type variables of one checking
/// run, by the location they were created at (a `Span`'s own equality ignores
/// its location, so the key is the location's numbers).
#[derive(Default)]
pub(crate) struct OrderZeroOrigins {
    by_location: HashMap<(u32, u32, u32), OrderZeroOrigin>,
}

impl OrderZeroOrigins {
    fn key(span: Span) -> (u32, u32, u32) {
        (span.file.0, span.start, span.end)
    }

    /// Records why the variables created at `span` exclude functions; the
    /// first record for a location wins.
    pub(crate) fn record(&mut self, span: Span, origin: OrderZeroOrigin) {
        self.by_location.entry(Self::key(span)).or_insert(origin);
    }

    pub(crate) fn get(&self, span: Span) -> Option<&OrderZeroOrigin> {
        self.by_location.get(&Self::key(span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_name_the_rule_and_the_offending_type() {
        let note = PaperRule::If.order_zero_citation("i32 -> i32");
        assert!(note.starts_with("TFP'18 rule T-If: "), "{note}");
        assert!(note.contains("`i32 -> i32` is not of order zero"), "{note}");
    }

    #[test]
    fn builtins_cite_their_own_rule() {
        assert_eq!(PaperRule::of_builtin("map2"), Some(PaperRule::Map));
        assert_eq!(PaperRule::of_builtin("scan"), Some(PaperRule::Scan));
        assert_eq!(PaperRule::of_builtin("replicate"), Some(PaperRule::Array));
        assert_eq!(PaperRule::of_builtin("copy"), None);
    }

    #[test]
    fn origins_are_keyed_by_location() {
        let mut origins = OrderZeroOrigins::default();
        let first = Span::new(spec::source::FileId(0), 3, 7);
        let other = Span::new(spec::source::FileId(0), 3, 8);
        origins.record(
            first,
            OrderZeroOrigin {
                rule: PaperRule::Map,
                function: None,
            },
        );
        assert_eq!(origins.get(first).map(|o| o.rule), Some(PaperRule::Map));
        assert!(origins.get(other).is_none());
    }
}
