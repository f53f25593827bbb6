//! Reducing a program that shows a finding (a disagreement between the
//! implementations, an internal error) to a small one that still shows it:
//! the workflow of C-Reduce and `wasm-tools shrink`, for programs found
//! outside a campaign (a user's, a bug report's). Campaign programs shrink
//! through their generators instead (`crate::campaign::shrink_while`).
//!
//! The reducer edits the program's text and keeps an edit when the
//! *interestingness* predicate still holds of the result (for
//! `runestone reduce`: the corpus oracle still reports the same check).
//! Edits that break the program (a parse error, an unbound name, a type
//! error) are never kept: the implementations then agree on rejecting it, so
//! the reduced program stays well typed whenever the finding needs it to.
//! Passes, repeated until none makes progress:
//!
//! 1. delete a top-level declaration;
//! 2. delete lines, in chunks halving from half the program to one line
//!    (delta debugging), test-block lines included;
//! 3. replace an expression by one of its direct sub-expressions (a `let`
//!    by its body, an application by its argument, …), outermost first.

use spec::source::{SourceMap, Span};
use spec::syntax::ast::{Dec, Expr, ModExp};

/// The reduced program and what it took.
#[derive(Clone, Debug)]
pub struct Reduction {
    pub program: String,
    /// Candidates the predicate was asked about.
    pub candidates: usize,
    /// Candidates kept.
    pub kept: usize,
    /// Whether the reducer stopped at its candidate budget.
    pub budget_exhausted: bool,
}

/// Reduces `program`, for which `interesting` holds, asking the predicate
/// about at most `budget` candidates; calls `progress` after each kept edit
/// with the current program.
pub fn reduce(
    program: &str,
    budget: usize,
    interesting: &mut dyn FnMut(&str) -> bool,
    progress: &mut dyn FnMut(&str),
) -> Reduction {
    let mut state = Reducer {
        current: program.to_string(),
        candidates: 0,
        kept: 0,
        budget,
        interesting,
        progress,
    };
    loop {
        let before = state.kept;
        state.delete_declarations();
        state.delete_lines();
        state.replace_expressions();
        if state.kept == before || state.exhausted() {
            break;
        }
    }
    Reduction {
        budget_exhausted: state.exhausted(),
        program: state.current,
        candidates: state.candidates,
        kept: state.kept,
    }
}

struct Reducer<'a> {
    current: String,
    candidates: usize,
    kept: usize,
    budget: usize,
    interesting: &'a mut dyn FnMut(&str) -> bool,
    progress: &'a mut dyn FnMut(&str),
}

impl Reducer<'_> {
    fn exhausted(&self) -> bool {
        self.candidates >= self.budget
    }

    /// Asks about `candidate`; keeps it when interesting.
    fn try_candidate(&mut self, candidate: String) -> bool {
        if self.exhausted() || candidate == self.current {
            return false;
        }
        self.candidates += 1;
        if (self.interesting)(&candidate) {
            self.current = candidate;
            self.kept += 1;
            (self.progress)(&self.current);
            true
        } else {
            false
        }
    }

    fn delete_declarations(&mut self) {
        let mut index = usize::MAX;
        loop {
            let spans = top_level_spans(&self.current);
            index = index.min(spans.len());
            if index == 0 || self.exhausted() {
                return;
            }
            index -= 1;
            let candidate = without(&self.current, spans[index]);
            self.try_candidate(candidate);
        }
    }

    fn delete_lines(&mut self) {
        let mut chunk = (self.current.lines().count() / 2).max(1);
        loop {
            let mut start = 0;
            loop {
                let lines: Vec<&str> = self.current.lines().collect();
                if start >= lines.len() || self.exhausted() {
                    break;
                }
                let end = (start + chunk).min(lines.len());
                let candidate = lines[..start]
                    .iter()
                    .chain(&lines[end..])
                    .map(|line| format!("{line}\n"))
                    .collect::<String>();
                if !self.try_candidate(candidate) {
                    start = end;
                }
            }
            if chunk == 1 || self.exhausted() {
                return;
            }
            chunk /= 2;
        }
    }

    fn replace_expressions(&mut self) {
        let mut skip = 0;
        loop {
            if self.exhausted() {
                return;
            }
            // Every (expression, child) pair, outermost expressions first;
            // the first `skip` were tried on this text already.
            let replacements = expression_replacements(&self.current);
            let Some(&(outer, inner)) = replacements.get(skip) else {
                return;
            };
            let text = &self.current;
            let candidate = format!(
                "{}({}){}",
                &text[..outer.start as usize],
                &text[inner.start as usize..inner.end as usize],
                &text[outer.end as usize..]
            );
            if !self.try_candidate(candidate) {
                skip += 1;
            }
        }
    }
}

/// `text` without the bytes of `span` (and the line break after them).
fn without(text: &str, span: Span) -> String {
    let (start, mut end) = (span.start as usize, span.end as usize);
    if text[end..].starts_with('\n') {
        end += 1;
    }
    format!("{}{}", &text[..start], &text[end..])
}

fn parse(text: &str) -> Option<spec::syntax::ast::Program> {
    let mut sources = SourceMap::new();
    let file = sources.add("candidate.fut", text);
    spec::syntax::parse_program(file, text).ok()
}

/// The spans of the program's top-level declarations (none when it does
/// not parse).
fn top_level_spans(text: &str) -> Vec<Span> {
    parse(text)
        .map(|program| program.decs.iter().map(Dec::span).collect())
        .unwrap_or_default()
}

/// Every expression of the program paired with each of its direct
/// sub-expressions, outermost expressions first.
fn expression_replacements(text: &str) -> Vec<(Span, Span)> {
    let Some(program) = parse(text) else {
        return Vec::new();
    };
    let mut expressions = Vec::new();
    for dec in &program.decs {
        dec_expressions(dec, &mut expressions);
    }
    let mut pairs = Vec::new();
    let mut level: Vec<&Expr> = expressions;
    while !level.is_empty() {
        let mut next = Vec::new();
        for expr in level {
            for child in expr.children() {
                pairs.push((expr.span(), child.span()));
                next.push(child);
            }
        }
        level = next;
    }
    pairs
}

/// The bodies of the value declarations in `dec` (inside modules too).
fn dec_expressions<'a>(dec: &'a Dec, out: &mut Vec<&'a Expr>) {
    match dec {
        Dec::Value(bind) => out.push(&bind.body),
        Dec::Local { dec, .. } | Dec::Attr { dec, .. } => dec_expressions(dec, out),
        Dec::Module(bind) => mod_expressions(&bind.body, out),
        Dec::Open { module, .. } => mod_expressions(module, out),
        Dec::Type(_) | Dec::ModuleType(_) | Dec::Import { .. } => {}
    }
}

fn mod_expressions<'a>(module: &'a ModExp, out: &mut Vec<&'a Expr>) {
    match module {
        ModExp::Struct { decs, .. } => decs.iter().for_each(|d| dec_expressions(d, out)),
        ModExp::Ascribe { module, .. } => mod_expressions(module, out),
        ModExp::Lambda { body, .. } => mod_expressions(body, out),
        ModExp::Apply {
            functor, argument, ..
        } => {
            mod_expressions(functor, out);
            mod_expressions(argument, out);
        }
        ModExp::Var(_) | ModExp::Import { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_declarations_go_when_the_predicate_allows() {
        let program = "def a = 1\ndef b = 2\ndef c = 3\n-- keep\n";
        let reduction = reduce(
            program,
            1000,
            &mut |candidate| candidate.contains("def b = 2"),
            &mut |_| {},
        );
        assert_eq!(reduction.program, "def b = 2\n");
        assert!(!reduction.budget_exhausted);
    }

    #[test]
    fn an_expression_is_replaced_by_a_sub_expression() {
        let program = "def main (x: i32) = let y = x + 1 in y * 2\n";
        let reduction = reduce(
            program,
            1000,
            &mut |candidate| candidate.contains("x + 1") && parse(candidate).is_some(),
            &mut |_| {},
        );
        assert_eq!(reduction.program, "def main (x: i32) = (x + 1)\n");
    }

    #[test]
    fn the_budget_bounds_the_candidates() {
        let program = "def a = 1\ndef b = 2\ndef c = 3\n";
        let reduction = reduce(program, 2, &mut |_| false, &mut |_| {});
        assert_eq!(reduction.candidates, 2);
        assert!(reduction.budget_exhausted);
        assert_eq!(reduction.program, program);
    }
}
