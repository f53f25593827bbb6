//! Derivations as data (issue 28, item 1): every judgment of the reference
//! enters through [`judgment`] (which also grows the stack: every recursive
//! judgment is one), names the rule it applied with [`fire`] (id as in
//! `proofs-notes/rules.toml`) and, where the paper writes one, its
//! conclusion with [`conclusion`]; a pipeline's phases are [`phase`]s. A
//! caller that asks — `runestone check|run|defunc|nested --trace` — gets the
//! tree ([`record`]): premises in the order the judgment derived them (the
//! paper's order), the judgment in the paper's notation where the rule
//! writes it, its source span where the syntax has one, and a failed
//! premise ([`crate::ablation::holds`]) at the node it failed in.
//!
//! A judgment the reference memoises (λC/λA typing of a shared abstraction,
//! `V` of a shared node: SPEC_NOTES L05-27) is recorded where it is first
//! derived, not again at each later use. A phase records at most
//! [`NODES_PER_PHASE`] nodes and is marked truncated past them.
//!
//! Recording is off unless [`record`] runs: a judgment then pays one
//! thread-local read (measured in `benches/RESULTS.md`). Every rule also counts towards [`crate::coverage`].
//! The JSON form ([`Derivation::to_json`]) follows the versioned schema
//! `proofs-notes/derivation.schema.json`.

use crate::coverage;
use spec::source::{SourceMap, Span};
use std::cell::{Cell, RefCell};
use std::fmt::Write;

/// The schema the JSON form follows (`$id` of
/// `proofs-notes/derivation.schema.json`); its number changes with any
/// change a reader could notice.
pub const SCHEMA: &str = "runestone-derivation/1";

/// Nodes one phase records at most: an evaluation runs for millions of
/// steps, and a derivation past this size is marked truncated rather than
/// exhausting memory.
pub const NODES_PER_PHASE: usize = 50_000;

/// What a node of the tree stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A phase of a pipeline (elaboration, flattening, …): its premises are
    /// the derivations the phase built.
    Phase,
    /// One judgment, concluded by the rule it names (none when it failed
    /// before any rule applied).
    Judgment,
}

/// One node of a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    /// The rule's id as in `proofs-notes/rules.toml`.
    pub rule: Option<&'static str>,
    /// The judgment in the paper's notation (for a phase, its title); empty
    /// where the rule does not write it.
    pub judgment: String,
    /// The object the judgment concluded with, where the rule prints one.
    pub conclusion: Option<String>,
    pub span: Option<Span>,
    /// The named premise (`ablation::Premise::name`) that did not hold here.
    pub failed_premise: Option<&'static str>,
    /// Set on a phase that recorded [`NODES_PER_PHASE`] nodes and dropped the
    /// rest.
    pub truncated: bool,
    pub premises: Vec<Node>,
}

impl Node {
    fn new(kind: NodeKind, judgment: String, span: Option<Span>) -> Node {
        Node {
            kind,
            rule: None,
            judgment,
            conclusion: None,
            span,
            failed_premise: None,
            truncated: false,
            premises: Vec::new(),
        }
    }

    /// The number of nodes on the longest path from here down.
    pub fn height(&self) -> usize {
        1 + self.premises.iter().map(Node::height).max().unwrap_or(0)
    }
}

/// A recorded derivation: the phases (or judgments) at its root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivation {
    pub roots: Vec<Node>,
}

struct Recorder {
    /// The open nodes, innermost last; the first is the root's sentinel.
    open: Vec<Node>,
    /// Nodes recorded in the current phase.
    recorded: usize,
}

thread_local! {
    static RECORDING: Cell<bool> = const { Cell::new(false) };
    static RECORDER: RefCell<Recorder> = const {
        RefCell::new(Recorder { open: Vec::new(), recorded: 0 })
    };
}

#[inline]
fn recording() -> bool {
    RECORDING.with(Cell::get)
}

/// Runs `work` recording its derivation (nested recordings each get their
/// own tree).
pub fn record<R>(work: impl FnOnce() -> R) -> (R, Derivation) {
    let outer_flag = RECORDING.with(|flag| flag.replace(true));
    let outer = RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        let sentinel = Node::new(NodeKind::Phase, String::new(), None);
        let open = std::mem::replace(&mut recorder.open, vec![sentinel]);
        (open, std::mem::take(&mut recorder.recorded))
    });
    let result = work();
    let roots = RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        // A judgment left open by a panic that was caught is closed here.
        while recorder.open.len() > 1 {
            close(&mut recorder);
        }
        let roots = std::mem::take(&mut recorder.open[0].premises);
        recorder.open = outer.0;
        recorder.recorded = outer.1;
        roots
    });
    RECORDING.with(|flag| flag.set(outer_flag));
    (result, Derivation { roots })
}

/// Runs one judgment (on a grown stack), recording it as a node below the
/// judgment that asked for it.
#[inline]
pub fn judgment<R>(span: Option<Span>, work: impl FnOnce() -> R) -> R {
    if !recording() {
        return spec::recursion::with_stack(work);
    }
    open(NodeKind::Judgment, String::new, span, work)
}

/// Runs one phase of a pipeline, titled `title` (built only when recording).
pub fn phase<R>(title: impl FnOnce() -> String, work: impl FnOnce() -> R) -> R {
    if !recording() {
        return work();
    }
    RECORDER.with(|recorder| recorder.borrow_mut().recorded = 0);
    open(NodeKind::Phase, title, None, work)
}

/// The recording path of [`judgment`] and [`phase`], kept out of line so
/// that a judgment's fast path stays a flag test and a stack check.
#[cold]
#[inline(never)]
fn open<R>(
    kind: NodeKind,
    text: impl FnOnce() -> String,
    span: Option<Span>,
    work: impl FnOnce() -> R,
) -> R {
    let opened = RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        if kind == NodeKind::Judgment {
            if recorder.recorded >= NODES_PER_PHASE {
                mark_truncated(&mut recorder);
                return false;
            }
            recorder.recorded += 1;
        }
        recorder.open.push(Node::new(kind, text(), span));
        true
    });
    let result = spec::recursion::with_stack(work);
    if opened {
        RECORDER.with(|recorder| close(&mut recorder.borrow_mut()));
    }
    result
}

/// Closes the innermost open node: a judgment no rule concluded and that
/// holds nothing of its own (a wrapper judgment) gives its premises to its
/// parent.
fn close(recorder: &mut Recorder) {
    let node = recorder.open.pop().expect("an open node");
    let parent = recorder.open.last_mut().expect("the root sentinel");
    let transparent = node.kind == NodeKind::Judgment
        && node.rule.is_none()
        && node.judgment.is_empty()
        && node.conclusion.is_none()
        && node.failed_premise.is_none();
    if transparent {
        parent.premises.extend(node.premises);
    } else {
        parent.premises.push(node);
    }
}

/// Marks the innermost open phase as truncated.
fn mark_truncated(recorder: &mut Recorder) {
    if let Some(phase) = recorder
        .open
        .iter_mut()
        .rev()
        .find(|node| node.kind == NodeKind::Phase)
    {
        phase.truncated = true;
    }
}

/// Notes that `rule` was applied; `judgment` says to what (built only when
/// recording). The first rule of a judgment concludes it; a further rule in
/// the same judgment (a side condition's) is a premise of its own.
#[inline]
pub fn fire(rule: &'static str, judgment: impl FnOnce() -> String) {
    coverage::fire(rule);
    if recording() {
        record_rule(rule, judgment);
    }
}

#[cold]
#[inline(never)]
fn record_rule(rule: &'static str, judgment: impl FnOnce() -> String) {
    RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        let full = recorder.recorded >= NODES_PER_PHASE;
        let top = recorder.open.last_mut().expect("the root sentinel");
        if top.kind == NodeKind::Judgment && top.rule.is_none() {
            top.rule = Some(rule);
            top.judgment = judgment();
        } else if full {
            mark_truncated(&mut recorder);
        } else {
            let mut node = Node::new(NodeKind::Judgment, judgment(), None);
            node.rule = Some(rule);
            top.premises.push(node);
            recorder.recorded += 1;
        }
    });
}

/// [`fire`] for a rule whose judgment the trace does not print.
#[inline]
pub fn fire_rule(rule: &'static str) {
    fire(rule, String::new);
}

/// Records the object the current judgment concluded with (built only when
/// recording).
#[inline]
pub fn conclusion(text: impl FnOnce() -> String) {
    if recording() {
        record_conclusion(text);
    }
}

#[cold]
#[inline(never)]
fn record_conclusion(text: impl FnOnce() -> String) {
    RECORDER.with(|recorder| {
        if let Some(top) = recorder.borrow_mut().open.last_mut() {
            top.conclusion = Some(text());
        }
    });
}

/// Records that the named premise did not hold in the current judgment
/// (called by [`crate::ablation::holds`] on failure only).
pub fn premise_failed(premise: &'static str) {
    if !recording() {
        return;
    }
    RECORDER.with(|recorder| {
        if let Some(top) = recorder.borrow_mut().open.last_mut() {
            top.failed_premise.get_or_insert(premise);
        }
    });
}

impl Derivation {
    /// The derivation one node a line, indented by depth: `== title` for a
    /// phase, `rule: judgment` for a judgment, `⇒ conclusion` below it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for root in &self.roots {
            text_node(&mut out, root, 0);
        }
        out
    }

    /// The JSON document of schema [`SCHEMA`] for one command's run.
    pub fn to_json(&self, run: &TracedRun, sources: &SourceMap) -> String {
        let mut out = String::new();
        let verdict = run.outcome.verdict.name();
        let _ = write!(
            out,
            "{{\"schema\":{},\"command\":{},\"file\":{},\"outcome\":{{\"verdict\":\"{verdict}\"",
            json_string(SCHEMA),
            json_string(run.command),
            json_string(run.file)
        );
        if let Some(code) = run.outcome.code {
            let _ = write!(out, ",\"code\":{}", json_string(code));
        }
        if let Some(message) = run.outcome.message {
            let _ = write!(out, ",\"message\":{}", json_string(message));
        }
        if let Some(span) = run.outcome.span {
            out.push_str(",\"span\":");
            json_span(&mut out, span, sources);
        }
        let _ = write!(out, "}},\"output\":{},\"roots\":[", json_string(run.output));
        for (index, root) in self.roots.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            json_node(&mut out, root, sources);
        }
        out.push_str("]}\n");
        out
    }
}

/// What a traced command reports besides its derivation.
pub struct TracedRun<'a> {
    /// `check`, `run`, `defunc` or `nested`.
    pub command: &'a str,
    pub file: &'a str,
    pub outcome: TracedOutcome<'a>,
    /// What the command printed on its standard output.
    pub output: &'a str,
}

/// A traced command's verdict, with the error that decided it.
#[derive(Clone, Copy, Debug, Default)]
pub struct TracedOutcome<'a> {
    pub verdict: Verdict,
    /// The error's code (a rule id, a diagnostic code, a run-time error's
    /// kind).
    pub code: Option<&'a str>,
    pub message: Option<&'a str>,
    pub span: Option<Span>,
}

impl<'a> TracedOutcome<'a> {
    /// The outcome a diagnostic decided, by its kind: rejected, or failed
    /// for an unsupported construct or an internal failure.
    pub fn from_diagnostic(diagnostic: &'a spec::diagnostic::Diagnostic) -> TracedOutcome<'a> {
        use spec::diagnostic::DiagnosticKind;
        let verdict = match diagnostic.kind() {
            DiagnosticKind::Rejection => Verdict::Rejected,
            DiagnosticKind::Unsupported | DiagnosticKind::Internal => Verdict::Failed,
        };
        TracedOutcome {
            verdict,
            code: diagnostic.code.as_deref(),
            message: Some(&diagnostic.message),
            span: diagnostic.primary_span(),
        }
    }
}

/// How a traced command ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Verdict {
    /// The program was accepted (and, for `run`, ran to a value; for
    /// `check` and `nested`, every check held).
    #[default]
    Accepted,
    /// The program was rejected: a verdict of the paper's judgments.
    Rejected,
    /// The run failed: a run-time error, an unsupported construct, a
    /// violated theorem or another check.
    Failed,
}

impl Verdict {
    /// The verdict as the schema spells it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Rejected => "rejected",
            Verdict::Failed => "failed",
        }
    }
}

fn text_node(out: &mut String, node: &Node, depth: usize) {
    out.push_str(&"  ".repeat(depth));
    match node.kind {
        NodeKind::Phase => {
            out.push_str("== ");
            out.push_str(&node.judgment);
        }
        NodeKind::Judgment => {
            out.push_str(node.rule.unwrap_or("(no rule)"));
            if !node.judgment.is_empty() {
                out.push_str(": ");
                out.push_str(&node.judgment);
            }
            if let Some(premise) = node.failed_premise {
                out.push_str("   ✗ ");
                out.push_str(premise);
            }
        }
    }
    if node.truncated {
        let _ = write!(out, "   (truncated after {NODES_PER_PHASE} nodes)");
    }
    out.push('\n');
    for premise in &node.premises {
        text_node(out, premise, depth + 1);
    }
    if let Some(conclusion) = &node.conclusion {
        out.push_str(&"  ".repeat(depth + 1));
        out.push_str("⇒ ");
        out.push_str(conclusion);
        out.push('\n');
    }
}

fn json_node(out: &mut String, node: &Node, sources: &SourceMap) {
    let kind = match node.kind {
        NodeKind::Phase => "phase",
        NodeKind::Judgment => "judgment",
    };
    let _ = write!(out, "{{\"kind\":\"{kind}\",\"rule\":");
    match node.rule {
        Some(rule) => out.push_str(&json_string(rule)),
        None => out.push_str("null"),
    }
    let _ = write!(out, ",\"judgment\":{}", json_string(&node.judgment));
    if let Some(conclusion) = &node.conclusion {
        let _ = write!(out, ",\"conclusion\":{}", json_string(conclusion));
    }
    if let Some(span) = node.span {
        out.push_str(",\"span\":");
        json_span(out, span, sources);
    }
    if let Some(premise) = node.failed_premise {
        let _ = write!(out, ",\"failed_premise\":{}", json_string(premise));
    }
    if node.truncated {
        out.push_str(",\"truncated\":true");
    }
    out.push_str(",\"premises\":[");
    for (index, premise) in node.premises.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        spec::recursion::with_stack(|| json_node(out, premise, sources));
    }
    out.push_str("]}");
}

/// A span as its file's name, byte offsets and the 1-based line and column
/// of its start.
fn json_span(out: &mut String, span: Span, sources: &SourceMap) {
    let file = sources.get(span.file);
    let (line, column) = file.line_column(span.start as usize);
    let _ = write!(
        out,
        "{{\"file\":{},\"start\":{},\"end\":{},\"line\":{line},\"column\":{column}}}",
        json_string(&file.name),
        span.start,
        span.end
    );
}

/// `text` as a JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_recorded_unless_asked() {
        let result = judgment(None, || {
            fire("ICFP18 rule 9", || panic!("built only when recording"));
            conclusion(|| panic!("built only when recording"));
            7
        });
        assert_eq!(result, 7);
    }

    #[test]
    fn premises_nest_under_the_judgment_whatever_the_order_of_its_rule() {
        let ((), derivation) = record(|| {
            phase(
                || "one phase".to_string(),
                || {
                    judgment(None, || {
                        // The premise is derived before the rule is named.
                        judgment(None, || fire("ICFP18 rule 9", || "E ⊢ i32 : τ".into()));
                        fire("ICFP18 rule 12", || "E ⊢ exp : ty : τ".into());
                        conclusion(|| "τ = i32".into());
                    });
                    // A wrapper that names no rule gives its premises away.
                    judgment(None, || judgment(None, || fire_rule("ICFP18 rule 11")));
                },
            )
        });
        assert_eq!(derivation.roots.len(), 1);
        let phase = &derivation.roots[0];
        assert_eq!(phase.kind, NodeKind::Phase);
        let rules: Vec<_> = phase.premises.iter().map(|node| node.rule).collect();
        assert_eq!(rules, [Some("ICFP18 rule 12"), Some("ICFP18 rule 11")]);
        assert_eq!(phase.premises[0].premises[0].rule, Some("ICFP18 rule 9"));
        assert_eq!(phase.premises[0].conclusion.as_deref(), Some("τ = i32"));
        assert_eq!(
            derivation.to_text(),
            "== one phase\n  ICFP18 rule 12: E ⊢ exp : ty : τ\n    ICFP18 rule 9: E ⊢ i32 : τ\n    ⇒ τ = i32\n  ICFP18 rule 11\n"
        );
    }

    #[test]
    fn a_phase_past_its_node_budget_is_marked_truncated() {
        let ((), derivation) = record(|| {
            phase(
                || "long".to_string(),
                || {
                    for _ in 0..NODES_PER_PHASE + 10 {
                        judgment(None, || fire_rule("TFP18 E-App"));
                    }
                },
            );
            phase(
                || "short".to_string(),
                || judgment(None, || fire_rule("TFP18 E-App")),
            );
        });
        let [long, short] = &derivation.roots[..] else {
            panic!("two phases: {:?}", derivation.roots.len());
        };
        assert!(long.truncated);
        assert_eq!(long.premises.len(), NODES_PER_PHASE);
        assert!(!short.truncated);
        assert_eq!(short.premises.len(), 1);
    }

    #[test]
    fn json_strings_escape_what_json_requires() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}⊢"),
            "\"a\\\"b\\\\c\\nd\\u0001⊢\""
        );
    }
}
