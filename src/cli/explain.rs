//! `runestone explain FILE [--html OUT]` (issue 28, item 2): one
//! self-contained HTML page to explore what the reference derived for a
//! program — no network access, no build step, no framework to view it.
//!
//! The page holds the `--trace json` documents of the commands that judge
//! the program (`check` and `defunc` for a `.fut` program: ICFP'18
//! elaboration, static interpretation and Proposition 6.1, then TFP'18
//! typing, uniqueness and defunctionalisation; `nested --quick` for a `.lp`
//! or `.lc` program), the program's text, the `proofs-notes/rules.toml`
//! entry of every rule they name, and for λP/λC the small-step sequences of
//! both sides of Theorem 6.37 (`reference::nested::stepper`). The viewer
//! (`explain/explorer.js`, `explain/explorer.css`) renders collapsible
//! trees, links each rule to its entry (paper, figure, rules.toml line),
//! highlights a node's source span on hover, searches by rule id
//! (`#search=ID` in the address does it on load), shows a failed premise in
//! place with its diagnostic, and steps the reductions.

use super::common::Executed;
use super::{check, defunc, nested};
use reference::derivation::Node;
use reference::nested::machine::with_large_stack;
use reference::nested::stepper::{self, Reduction, Sequence, SequenceEnd, Stepper, StepperLimits};
use serde_json::{json, Map, Value};
use spec::source::SourceMap;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `runestone explain`.
#[derive(clap::Args)]
pub struct Args {
    /// The program: Futhark (`.fut`), λP (`.lp`) or λC (`.lc`).
    file: PathBuf,
    /// Where to write the page (default: the program's file name with
    /// `.html` appended, in the current directory).
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// λP/λC: steps of each side the stepper records at most.
    #[arg(long, default_value_t = StepperLimits::default().steps)]
    steps: usize,
}

/// The viewer, inlined into every page.
const EXPLORER_JS: &str = include_str!("explain/explorer.js");
const EXPLORER_CSS: &str = include_str!("explain/explorer.css");
/// The registry of rules the page links to.
const RULES_TOML: &str = include_str!("../../proofs-notes/rules.toml");

/// The kind of program, by its file name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    Futhark,
    Nested,
}

pub fn run(args: Args) -> ExitCode {
    let name = args.file.display().to_string();
    let language = if name.ends_with(".fut") {
        Language::Futhark
    } else if name.ends_with(".lp") || name.ends_with(".lc") {
        Language::Nested
    } else {
        eprintln!("runestone explain: {name}: expected a .fut, .lp or .lc program");
        return ExitCode::from(2);
    };
    let source = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {name}: {error}");
            return ExitCode::from(1);
        }
    };
    let commands: &[&str] = match language {
        Language::Futhark => &["check", "defunc"],
        Language::Nested => &["nested"],
    };
    let runs: Vec<Executed> = match language {
        Language::Futhark => vec![
            check::execute(check::Args::traced_json(args.file.clone())),
            defunc::execute(defunc::Args::traced_json(args.file.clone())),
        ],
        Language::Nested => vec![nested::execute(nested::Args::traced_json(
            args.file.clone(),
        ))],
    };
    if let Some(unstarted) = runs.iter().find(|executed| executed.stdout.is_empty()) {
        // The command could not start (an unreadable file): its diagnostic
        // is on stderr already.
        return unstarted.exit;
    }
    let stepper = match language {
        Language::Futhark => Value::Null,
        Language::Nested => {
            let limits = StepperLimits {
                steps: args.steps,
                ..StepperLimits::default()
            };
            let (file_name, text) = (name.clone(), source.clone());
            with_large_stack(move || {
                let mut sources = SourceMap::new();
                let file = sources.add(file_name.clone(), text.clone());
                stepper::step_program(file, &file_name, &text, limits).ok()
            })
            .map_or(Value::Null, |stepped| stepper_json(&stepped))
        }
    };
    let page = page(&name, &source, &runs, stepper);
    let out = args.html.unwrap_or_else(|| default_out(&args.file));
    if let Err(error) = std::fs::write(&out, page.html) {
        eprintln!("error: cannot write {}: {error}", out.display());
        return ExitCode::from(1);
    }
    println!(
        "wrote {} ({} derivation nodes, {} rules; {}): open it in a browser",
        out.display(),
        page.nodes,
        page.rules,
        commands
            .iter()
            .zip(&page.verdicts)
            .map(|(command, verdict)| format!("{command} {verdict}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    ExitCode::SUCCESS
}

/// `prog.fut` → `./prog.fut.html`.
fn default_out(file: &Path) -> PathBuf {
    let name = file.file_name().map_or_else(
        || "explain".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    PathBuf::from(format!("{name}.html"))
}

/// A written page and what it holds.
struct Page {
    html: String,
    nodes: usize,
    rules: usize,
    verdicts: Vec<String>,
}

/// The page: the viewer with the commands' documents, the program and the
/// rules inlined.
fn page(file: &str, source: &str, runs: &[Executed], stepper: Value) -> Page {
    let mut used = BTreeSet::new();
    let mut nodes = 0;
    for executed in runs {
        for root in &executed.derivation.roots {
            collect_rules(root, &mut used, &mut nodes);
        }
    }
    for side in ["lambda_c", "lambda_a"] {
        for step in stepper[side]["steps"].as_array().into_iter().flatten() {
            for rule in step["rules"].as_array().into_iter().flatten() {
                used.extend(rule.as_str().map(str::to_string));
            }
        }
    }
    let registry = rules_registry();
    let mut rules = Map::new();
    for id in &used {
        if let Some(entry) = registry.iter().find(|entry| &entry.id == id) {
            rules.insert(id.clone(), entry.to_json());
        }
    }
    let rule_count = rules.len();
    let verdicts = runs
        .iter()
        .map(|executed| executed.verdict.name().to_string())
        .collect();
    let data = json!({
        "file": file,
        "source": source,
        "rules": rules,
        "papers": papers(),
        "stepper": stepper,
    })
    .to_string();
    // The documents are the commands' `--trace json` text as it is (schema
    // proofs-notes/derivation.schema.json), spliced in as the last field.
    let documents: Vec<&str> = runs
        .iter()
        .map(|executed| executed.stdout.trim_end())
        .collect();
    let data = format!(
        "{},\"documents\":[{}]}}",
        &data[..data.len() - 1],
        documents.join(",")
    );
    // Inside <script>, `</script>` or `<!--` would end or change the
    // element: no `<` is left in the JSON text (outside strings JSON has
    // none; inside them `\u003c` reads back the same).
    let data = data.replace('<', "\\u003c");
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>runestone explain: {title}</title>\n<style>\n{EXPLORER_CSS}</style>\n</head>\n\
         <body>\n<script type=\"application/json\" id=\"explain-data\">{data}</script>\n\
         <script>\n{EXPLORER_JS}</script>\n</body>\n</html>\n",
        title = html_escape(file),
    );
    Page {
        html,
        nodes,
        rules: rule_count,
        verdicts,
    }
}

/// Every rule id under `node`, and the number of nodes.
fn collect_rules(node: &Node, used: &mut BTreeSet<String>, nodes: &mut usize) {
    *nodes += 1;
    used.extend(node.rule.map(str::to_string));
    for premise in &node.premises {
        collect_rules(premise, used, nodes);
    }
}

/// The stepper's sequences as the viewer reads them.
fn stepper_json(stepped: &Stepper) -> Value {
    fn side(sequence: &Sequence) -> Value {
        let (end, reason) = match &sequence.end {
            SequenceEnd::Value => ("value", None),
            SequenceEnd::Bottom(reason) => ("bottom", Some(reason.clone())),
            SequenceEnd::Unknown(reason) => ("unknown", Some(reason.clone())),
            SequenceEnd::StepLimit => ("step-limit", None),
        };
        let steps: Vec<Value> = sequence
            .steps
            .iter()
            .map(|Reduction { rules, term }| json!({ "rules": rules, "term": term }))
            .collect();
        json!({
            "calculus": sequence.calculus,
            "initial": sequence.initial,
            "steps": steps,
            "end": end,
            "reason": reason,
        })
    }
    json!({
        "lambda_c": side(&stepped.lambda_c),
        "lambda_a": side(&stepped.lambda_a),
    })
}

/// One `[[rule]]` of `proofs-notes/rules.toml`.
struct RuleEntry {
    id: String,
    paper: String,
    what: String,
    /// The line of its `id = ` in rules.toml.
    line: usize,
}

impl RuleEntry {
    fn to_json(&self) -> Value {
        json!({
            "paper": self.paper,
            "what": self.what,
            "figure": figure(&self.id, &self.what),
            "line": self.line,
        })
    }
}

/// The entries of rules.toml (its format is the tidy test's: one `key =
/// "string"` a line).
fn rules_registry() -> Vec<RuleEntry> {
    let mut entries: Vec<RuleEntry> = Vec::new();
    for (index, line) in RULES_TOML.lines().enumerate() {
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        let value = value.trim().trim_matches('"').replace("\\\"", "\"");
        match key.trim() {
            "id" => entries.push(RuleEntry {
                id: value,
                paper: String::new(),
                what: String::new(),
                line: index + 1,
            }),
            "paper" => {
                if let Some(entry) = entries.last_mut() {
                    entry.paper = value;
                }
            }
            "what" => {
                if let Some(entry) = entries.last_mut() {
                    entry.what = value;
                }
            }
            _ => {}
        }
    }
    entries
}

/// The figure a rule is drawn in: the thesis' ids name it (`L05 Fig5.2
/// APP`), TFP'18's entries start with it (`Fig. 5: …`), ICFP'18's rule
/// numbers fall in the ranges of the paper's figures.
fn figure(id: &str, what: &str) -> Option<String> {
    if let Some(rest) = id.strip_prefix("L05 Fig") {
        return rest.split_whitespace().next().map(|f| format!("Fig. {f}"));
    }
    if let Some(number) = id
        .strip_prefix("ICFP18 rule ")
        .and_then(|n| n.parse::<u32>().ok())
    {
        let figure = match number {
            9..=37 => "Figs. 6–8 (elaboration)",
            38..=43 => "Fig. 9 (target typing)",
            44..=48 => "Fig. 10 (core compilation)",
            49..=53 => "Fig. 11 (filtering)",
            54..=65 => "Fig. 12 (static interpretation)",
            66..=70 => "Fig. 13 (type consistency)",
            _ => return None,
        };
        return Some(figure.to_string());
    }
    let head = what.split(':').next()?;
    (head.starts_with("Fig. ") || head.starts_with("Figs. ")).then(|| head.to_string())
}

/// The papers rules.toml names: citation and file under `../shared/papers/`.
fn papers() -> Value {
    json!({
        "icfp18": {
            "cite": "Elsman, Henriksen, Annenkov, Oancea: Static Interpretation of Higher-Order Modules in Futhark (ICFP 2018)",
            "file": "elsman2018-static-interpretation-higher-order-modules-futhark.md",
        },
        "icfp99": {
            "cite": "Elsman: Static Interpretation of Modules (ICFP 1999)",
            "file": "elsman1999-static-interpretation-of-modules.md",
        },
        "tfp18": {
            "cite": "Hovgaard, Henriksen, Elsman: High-Performance Defunctionalisation in Futhark (TFP 2018)",
            "file": "hovgaard2018-high-performance-defunctionalisation.md",
        },
        "leshchinskiy05": {
            "cite": "Leshchinskiy: Higher-Order Nested Data Parallelism: Semantics and Implementation (PhD thesis, 2005)",
            "file": "leshchinskiy2005-higher-order-nested-data-parallelism.md",
        },
    })
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_the_registry_has_a_paper_and_a_line() {
        let registry = rules_registry();
        assert!(registry.len() > 400, "{} rules", registry.len());
        for entry in &registry {
            assert!(
                papers()[entry.paper.as_str()].is_object(),
                "{}: paper {:?} has no citation",
                entry.id,
                entry.paper
            );
            let line = RULES_TOML.lines().nth(entry.line - 1).unwrap();
            assert!(line.contains(&entry.id), "{}: line {line}", entry.id);
        }
    }

    #[test]
    fn figures_come_from_the_id_the_range_or_the_entry() {
        assert_eq!(figure("L05 Fig5.2 APP", ""), Some("Fig. 5.2".to_string()));
        assert_eq!(
            figure("ICFP18 rule 29", "functor application").as_deref(),
            Some("Figs. 6–8 (elaboration)")
        );
        assert_eq!(
            figure("TFP18 D-Array", "Fig. 6: array literal").as_deref(),
            Some("Fig. 6")
        );
        assert_eq!(figure("TFP18 D-Assert", "extension: checks"), None);
    }

    #[test]
    fn the_data_cannot_close_its_script_element() {
        let page = page("x.fut", "-- </script><!-- <b>", &[], Value::Null);
        let data_start = page.html.find("id=\"explain-data\">").unwrap();
        let data_end = page.html[data_start..].find("</script>").unwrap();
        let data = &page.html[data_start..data_start + data_end];
        assert!(!data.contains("<!--"), "{data}");
        assert!(data.contains("\\u003c/script>"), "{data}");
    }
}
