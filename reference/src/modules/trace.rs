//! Derivation traces: every judgment records the rule it applied, with its
//! depth in the derivation, when a caller asks for it (`runestone check
//! --trace`). Every rule also counts towards [`crate::coverage`].

use crate::coverage;
use std::cell::RefCell;

/// One applied rule: its depth in the derivation, its id and the judgment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub depth: usize,
    pub rule: &'static str,
    pub judgment: String,
}

struct Recorder {
    depth: usize,
    steps: Option<Vec<Step>>,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = const { RefCell::new(Recorder { depth: 0, steps: None }) };
}

/// Notes that `rule` was applied; `judgment` says to what (built only when a
/// trace is being recorded).
pub fn fire(rule: &'static str, judgment: impl FnOnce() -> String) {
    coverage::fire(rule);
    RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        let depth = recorder.depth;
        if let Some(steps) = recorder.steps.as_mut() {
            steps.push(Step {
                depth,
                rule,
                judgment: judgment(),
            });
        }
    });
}

/// Records a heading (a phase of the pipeline) without counting a rule.
pub fn note(text: &str) {
    result(|| text.to_string(), "==");
}

/// Records the object a judgment concluded with (built only when recording).
pub fn conclusion(text: impl FnOnce() -> String) {
    result(text, "⇒");
}

fn result(text: impl FnOnce() -> String, marker: &'static str) {
    RECORDER.with(|recorder| {
        let mut recorder = recorder.borrow_mut();
        // A conclusion sits with the steps of the judgment it concludes.
        let depth = recorder.depth + usize::from(marker == "⇒");
        if let Some(steps) = recorder.steps.as_mut() {
            steps.push(Step {
                depth,
                rule: marker,
                judgment: text(),
            });
        }
    });
}

/// Runs a premise one level deeper in the derivation (and on a grown stack:
/// every recursive judgment enters through here).
pub fn premise<R>(work: impl FnOnce() -> R) -> R {
    RECORDER.with(|recorder| recorder.borrow_mut().depth += 1);
    let result = spec::recursion::with_stack(work);
    RECORDER.with(|recorder| recorder.borrow_mut().depth -= 1);
    result
}

/// Runs `work` recording the derivation.
pub fn record<R>(work: impl FnOnce() -> R) -> (R, Vec<Step>) {
    let outer = RECORDER.with(|recorder| recorder.borrow_mut().steps.replace(Vec::new()));
    let result = work();
    let steps =
        RECORDER.with(|recorder| std::mem::replace(&mut recorder.borrow_mut().steps, outer));
    (result, steps.unwrap_or_default())
}

/// The trace printed one step a line, indented by depth.
pub fn render(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        out.push_str(&"  ".repeat(step.depth));
        out.push_str(step.rule);
        if !step.judgment.is_empty() {
            out.push_str(if step.rule.starts_with("ICFP18") {
                ": "
            } else {
                " "
            });
            out.push_str(&step.judgment);
        }
        out.push('\n');
    }
    out
}
