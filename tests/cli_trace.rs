//! `--trace json` (issue 28, item 1): each of `check`, `run --backend
//! reference`, `defunc` and `nested` writes one document that the schema
//! `proofs-notes/derivation.schema.json` accepts, holding the derivation the
//! command's judgments built (rule ids of `proofs-notes/rules.toml`, spans,
//! the failed premise), its verdict and its usual output.

mod common;

use common::{runestone, runestone_with_stdin, text, ScratchDirectory};
use serde_json::Value;
use std::path::Path;

/// The schema, compiled once per test.
fn validator() -> (boon::Schemas, boon::SchemaIndex) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs-notes/derivation.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("the schema"))
        .expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("derivation.schema.json", schema)
        .expect("the schema loads");
    let index = compiler
        .compile("derivation.schema.json", &mut schemas)
        .expect("the schema compiles");
    (schemas, index)
}

/// The document on `stdout`, validated against the schema.
fn document(stdout: &[u8]) -> Value {
    let document: Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|error| panic!("not JSON ({error}): {}", text(stdout)));
    let (schemas, index) = validator();
    if let Err(error) = schemas.validate(&document, index) {
        panic!("the document breaks the schema: {error:#}");
    }
    document
}

/// Every node below `roots`, depth first, with the titles of the phases
/// above it.
fn nodes(roots: &Value) -> Vec<(Vec<String>, &Value)> {
    fn walk<'a>(
        node: &'a Value,
        phases: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, &'a Value)>,
    ) {
        let is_phase = node["kind"] == "phase";
        if is_phase {
            phases.push(node["judgment"].as_str().unwrap_or_default().to_string());
        }
        out.push((phases.clone(), node));
        for premise in node["premises"].as_array().into_iter().flatten() {
            walk(premise, phases, out);
        }
        if is_phase {
            phases.pop();
        }
    }
    let mut out = Vec::new();
    for root in roots.as_array().expect("roots") {
        walk(root, &mut Vec::new(), &mut out);
    }
    out
}

fn phase_titles(document: &Value) -> Vec<String> {
    document["roots"]
        .as_array()
        .expect("roots")
        .iter()
        .map(|root| root["judgment"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn check_writes_the_module_derivation_with_rule_29_under_elaboration() {
    let out = runestone(&["check", "examples/paper/fig3.fut", "--trace", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let document = document(&out.stdout);
    assert_eq!(document["command"], "check");
    assert_eq!(document["outcome"]["verdict"], "accepted");
    assert!(
        document["output"]
            .as_str()
            .is_some_and(|output| output.contains("Proposition 6.1 holds")),
        "{document}"
    );
    let titles = phase_titles(&document);
    assert!(titles[0].starts_with("elaboration"), "{titles:?}");
    assert!(titles[1].starts_with("static interpretation"), "{titles:?}");
    let nodes = nodes(&document["roots"]);
    let applications: Vec<_> = nodes
        .iter()
        .filter(|(phases, node)| {
            node["rule"] == "ICFP18 rule 29" && phases[0].starts_with("elaboration")
        })
        .collect();
    assert!(!applications.is_empty(), "no rule 29 under elaboration");
    // Each application is located in the source, and derived from premises.
    for (_, node) in applications {
        assert_eq!(node["span"]["file"], "examples/paper/fig3.fut", "{node}");
        assert!(node["span"]["line"].as_u64().is_some_and(|line| line > 1));
        assert!(!node["premises"].as_array().expect("premises").is_empty());
    }
    // Static interpretation fires its own rules (Fig. 12).
    assert!(nodes
        .iter()
        .any(|(phases, node)| node["rule"] == "ICFP18 rule 58"
            && phases[0].starts_with("static interpretation")));
}

#[test]
fn a_rejected_program_records_the_premise_that_failed() {
    let dir = ScratchDirectory::new("cli-trace");
    let file = dir.join("ascription.fut");
    std::fs::write(&file, "module M = { def x = (1 : i32 -> i32) }\n").expect("write");
    let out = runestone(&["check", file.to_str().expect("path"), "--trace", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let document = document(&out.stdout);
    assert_eq!(document["outcome"]["verdict"], "rejected");
    assert_eq!(document["outcome"]["code"], "rule 12");
    assert_eq!(document["outcome"]["span"]["line"], 1);
    let failed: Vec<_> = nodes(&document["roots"])
        .into_iter()
        .filter(|(_, node)| node.get("failed_premise").is_some())
        .collect();
    assert_eq!(failed.len(), 1, "{document}");
    assert_eq!(failed[0].1["rule"], "ICFP18 rule 12");
    assert_eq!(failed[0].1["failed_premise"], "ICFP18_12_ASCRIPTION");
}

#[test]
fn run_on_the_reference_records_typing_defunctionalisation_and_evaluation() {
    let out = runestone_with_stdin(
        &[
            "run",
            "--backend",
            "reference",
            "--trace",
            "json",
            "examples/paper/tfp18_fig1a.fut",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let document = document(&out.stdout);
    assert_eq!(document["command"], "run");
    assert_eq!(document["output"], "23i32\n");
    let nodes = nodes(&document["roots"]);
    let in_phase = |prefix: &str, rule_prefix: &str| {
        nodes.iter().any(|(phases, node)| {
            phases
                .first()
                .is_some_and(|phase| phase.starts_with(prefix))
                && node["rule"]
                    .as_str()
                    .is_some_and(|rule| rule.starts_with(rule_prefix))
        })
    };
    assert!(in_phase("TFP'18 typing", "TFP18 T-"));
    assert!(in_phase("defunctionalisation", "TFP18 D-"));
    assert!(in_phase("evaluation of main", "TFP18 E-"));
    // TFP'18's typing concludes with the type it derived.
    assert!(nodes.iter().any(|(_, node)| node["conclusion"]
        .as_str()
        .is_some_and(|conclusion| conclusion.starts_with("τ = "))));
}

#[test]
fn run_with_a_run_time_error_is_a_failed_outcome_with_its_kind() {
    let dir = ScratchDirectory::new("cli-trace-run");
    let file = dir.join("index.fut");
    std::fs::write(&file, "def main (xs: []i32) : i32 = xs[3]\n").expect("write");
    let args = ["run", "--backend", "reference", "--trace", "json"];
    let out = runestone_with_stdin(
        &[&args[..], &[file.to_str().expect("path")]].concat(),
        b"[1, 2]",
    );
    assert_eq!(out.status.code(), Some(1));
    let document = document(&out.stdout);
    assert_eq!(document["outcome"]["verdict"], "failed");
    assert_eq!(document["outcome"]["code"], "runtime");
    assert_eq!(document["outcome"]["span"]["line"], 1);
}

#[test]
fn trace_on_a_compiled_backend_is_a_usage_error() {
    let out = runestone_with_stdin(
        &["run", "--trace", "json", "examples/paper/tfp18_fig1a.fut"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--backend reference"));
}

#[test]
fn defunc_writes_the_tfp18_pipeline() {
    let out = runestone(&[
        "defunc",
        "examples/paper/tfp18_fig1a.fut",
        "--trace",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let document = document(&out.stdout);
    assert_eq!(document["command"], "defunc");
    let titles = phase_titles(&document);
    for wanted in [
        "TFP'18 typing",
        "uniqueness",
        "defunctionalisation",
        "Theorem 1",
    ] {
        assert!(
            titles.iter().any(|title| title.starts_with(wanted)),
            "{wanted} missing: {titles:?}"
        );
    }
    // The usual output (the target program) is kept in the document.
    let plain = runestone(&["defunc", "examples/paper/tfp18_fig1a.fut"]);
    assert_eq!(document["output"], text(&plain.stdout));
}

#[test]
fn nested_writes_every_phase_of_the_thesis_pipeline() {
    let out = runestone(&[
        "nested",
        "tests/nested/list_sums.lp",
        "--quick",
        "--trace",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let document = document(&out.stdout);
    assert_eq!(document["command"], "nested");
    let nodes = nodes(&document["roots"]);
    for (phase, rule_prefix) in [
        ("λP typing", "L05 Fig5.2 "),
        ("closure conversion", "L05 Fig5.5 "),
        ("λC typing", "L05 Fig5.4 "),
        ("flattening", "L05 Fig5.8 "),
        ("λA typing", "L05 Fig5.7 "),
    ] {
        assert!(
            nodes.iter().any(|(phases, node)| {
                phases.first().is_some_and(|title| title.starts_with(phase))
                    && node["rule"]
                        .as_str()
                        .is_some_and(|rule| rule.starts_with(rule_prefix))
            }),
            "no {rule_prefix} rule under {phase}"
        );
    }
}

#[test]
fn the_text_trace_indents_phases_and_rules() {
    let out = runestone(&["defunc", "examples/paper/tfp18_fig1a.fut", "--trace"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("== "), "{stdout}");
    assert!(stdout.contains("\n  TFP18 T-Dec: Γ ⊢ def "), "{stdout}");
}

#[test]
fn the_schema_rejects_what_it_does_not_describe() {
    let out = runestone(&["check", "examples/paper/fig3.fut", "--trace", "json"]);
    let valid = document(&out.stdout);
    let (schemas, index) = validator();
    let mut unknown_field = valid.clone();
    unknown_field["roots"][0]["premises"][0]["colour"] = Value::from("red");
    let mut numeric_rule = valid.clone();
    numeric_rule["roots"][0]["premises"][0]["rule"] = Value::from(29);
    let mut other_version = valid;
    other_version["schema"] = Value::from("runestone-derivation/0");
    for broken in [unknown_field, numeric_rule, other_version] {
        assert!(schemas.validate(&broken, index).is_err(), "{broken}");
    }
}
