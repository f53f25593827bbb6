//! `runestone explain` (issue 28, item 2) in a real browser: each page is
//! written by the command, opened in headless Chromium (Debian's `chromium`,
//! which `.ci/install` installs), its script run there, and the DOM Chromium
//! serialises afterwards read back: a search by rule id (`#search=…` in the
//! address) expands the tree down to the rule's nodes, a rejected program
//! shows its failed premise in place with the diagnostic, and the stepper
//! moves both sides of Theorem 6.37. A screenshot of the Fig. 3 page is kept
//! under `target/tmp/explain/` as the test's artifact.

mod common;

use common::{runestone, text, ScratchDirectory};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Chromium of this machine; the tests fail without one.
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let found = std::env::var_os("PATH").into_iter().flat_map(|path| {
            std::env::split_paths(&path)
                .map(|directory| directory.join(name))
                .collect::<Vec<_>>()
        });
        if let Some(path) = found.into_iter().find(|path| path.is_file()) {
            return path;
        }
    }
    panic!("no chromium on PATH: the explain page is tested in a real browser; install Debian's `chromium` (bash .ci/install)");
}

/// Runs headless Chromium on `url` with `mode` (`--dump-dom`, or
/// `--screenshot=PATH`), in its own profile, for at most a minute; its
/// stdout.
fn headless(url: &str, mode: &str, profile: &Path) -> String {
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1400,1000",
            &format!("--user-data-dir={}", profile.display()),
            mode,
            url,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    // The DOM is megabytes: read it while Chromium writes it.
    let mut stdout = child.stdout.take().expect("chromium's stdout");
    let reader = std::thread::spawn(move || {
        let mut dom = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut dom);
        dom
    });
    let started = Instant::now();
    while child.try_wait().expect("chromium runs").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium took more than a minute on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    text(&reader.join().expect("the reader"))
}

/// `runestone explain PROGRAM --html OUT`, which must succeed.
fn explain(program: &str, out: &Path) {
    let output = runestone(&["explain", program, "--html", out.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "explain {program}: {}",
        text(&output.stderr)
    );
    assert!(
        text(&output.stdout).starts_with(&format!("wrote {}", out.display())),
        "{}",
        text(&output.stdout)
    );
}

/// The page's DOM after its script ran in Chromium, at `fragment`.
fn rendered(page: &Path, fragment: &str, scratch: &ScratchDirectory) -> String {
    let url = format!("file://{}#{fragment}", page.display());
    let dom = headless(&url, "--dump-dom", &scratch.join("profile"));
    assert!(
        dom.contains("id=\"trees\""),
        "the page's script did not render (DOM: {} bytes)",
        dom.len()
    );
    dom
}

/// A `<details>` of the rendered tree: its opening tag, its summary's HTML
/// and text, and its ancestors' (outermost first).
#[derive(Clone, Debug)]
struct Rendered {
    tag: String,
    summary_html: String,
    summary_text: String,
}

/// Every rendered `<details>` with its ancestors, in document order.
fn details(dom: &str) -> Vec<(Rendered, Vec<Rendered>)> {
    let mut open: Vec<Rendered> = Vec::new();
    let mut all = Vec::new();
    let mut at = 0;
    loop {
        let next_open = dom[at..].find("<details").map(|i| at + i);
        let next_close = dom[at..].find("</details>").map(|i| at + i);
        match (next_open, next_close) {
            (Some(start), close) if close.is_none_or(|close| start < close) => {
                let tag_end = start + dom[start..].find('>').unwrap() + 1;
                let summary_end = tag_end + dom[tag_end..].find("</summary>").unwrap();
                let summary_html = dom[tag_end..summary_end].to_string();
                let node = Rendered {
                    tag: dom[start..tag_end].to_string(),
                    summary_text: strip_tags(&summary_html),
                    summary_html,
                };
                all.push((node.clone(), open.clone()));
                open.push(node);
                at = tag_end;
            }
            (_, Some(close)) => {
                open.pop();
                at = close + "</details>".len();
            }
            (_, None) => return all,
        }
    }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn is_open(node: &Rendered) -> bool {
    node.tag.contains(" open=")
}

/// The line of `id = "ID"` in proofs-notes/rules.toml.
fn rules_toml_line(id: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs-notes/rules.toml");
    let registry = std::fs::read_to_string(path).expect("rules.toml");
    registry
        .lines()
        .position(|line| line == format!("id = \"{id}\""))
        .expect("the rule is in rules.toml")
        + 1
}

/// The acceptance test of the issue: the Fig. 3 page, searched for rule 29,
/// shows rule 29's node opened under the derivation of `module Main = H(…)`
/// (the functor application of the running example), linked to its
/// rules.toml entry; a screenshot of that view is kept.
#[test]
fn the_fig3_page_finds_rule_29_under_main_and_links_it() {
    let scratch = ScratchDirectory::new("explain-fig3");
    let page = scratch.join("fig3.html");
    explain("examples/paper/fig3.fut", &page);
    let dom = rendered(&page, "search=ICFP18%20rule%2029", &scratch);

    let rule_29: Vec<_> = details(&dom)
        .into_iter()
        .filter(|(node, _)| node.tag.contains("data-rule=\"ICFP18 rule 29\""))
        .collect();
    assert!(rule_29.len() >= 2, "{} nodes of rule 29", rule_29.len());
    let under_main = rule_29
        .iter()
        .find(|(_, ancestors)| {
            ancestors
                .iter()
                .any(|ancestor| ancestor.summary_text.contains("module Main = mexp"))
        })
        .expect("a rule 29 node under module Main's derivation");
    let (node, ancestors) = under_main;
    assert!(
        node.tag.contains("match"),
        "not marked as found: {}",
        node.tag
    );
    assert!(is_open(node), "not expanded: {}", node.tag);
    assert!(
        ancestors.iter().all(is_open),
        "an ancestor is closed: {ancestors:#?}"
    );
    assert!(
        node.summary_html
            .contains("<a class=\"rule\" href=\"#rule-ICFP18-rule-29\""),
        "{}",
        node.summary_html
    );
    assert!(
        node.summary_text.contains("examples/paper/fig3.fut:24:3"),
        "the span of H(…): {}",
        node.summary_text
    );
    // The link's target: the rule's entry with its paper, figure and line.
    let entry_start = dom
        .find("<dt id=\"rule-ICFP18-rule-29\">ICFP18 rule 29</dt>")
        .expect("the rule's entry");
    let entry = &dom[entry_start..entry_start + dom[entry_start..].find("</dd>").unwrap()];
    for expected in [
        "functor application".to_string(),
        "Static Interpretation of Higher-Order Modules in Futhark".to_string(),
        "Figs. 6–8".to_string(),
        format!(
            "proofs-notes/rules.toml:{}",
            rules_toml_line("ICFP18 rule 29")
        ),
    ] {
        assert!(entry.contains(&expected), "{expected:?} not in {entry}");
    }
    assert!(dom.contains("id=\"search-count\">6 nodes<"), "search count");

    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain");
    std::fs::create_dir_all(&artifacts).expect("artifact directory");
    let screenshot = artifacts.join("fig3-rule-29.png");
    let _ = std::fs::remove_file(&screenshot);
    let url = format!("file://{}#search=ICFP18%20rule%2029", page.display());
    headless(
        &url,
        &format!("--screenshot={}", screenshot.display()),
        &scratch.join("profile"),
    );
    let png = std::fs::read(&screenshot).expect("the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
    println!("screenshot: {}", screenshot.display());
}

/// A program the reference rejects: the node whose premise failed is opened
/// and marked, with the diagnostic right under it.
#[test]
fn a_rejected_program_shows_its_failed_premise_in_place() {
    let scratch = ScratchDirectory::new("explain-rejected");
    let page = scratch.join("generative.html");
    explain(
        "tests/programs/modules/functor_application_is_generative.fut",
        &page,
    );
    let dom = rendered(&page, "", &scratch);
    let failed: Vec<_> = details(&dom)
        .into_iter()
        .filter(|(node, _)| node.tag.contains("class=\"node failed"))
        .collect();
    let (node, ancestors) = failed.first().expect("a failed node");
    assert!(
        node.tag.contains("data-rule=\"ICFP18 rule 14\""),
        "{}",
        node.tag
    );
    assert!(
        node.summary_text
            .contains("premise ICFP18_14_ARGUMENT failed"),
        "{}",
        node.summary_text
    );
    assert!(is_open(node) && ancestors.iter().all(is_open));
    let after_summary = &dom[dom.find(&node.summary_html).unwrap() + node.summary_html.len()..];
    assert!(
        after_summary.starts_with("</summary><div class=\"diagnostic\">error[rule 14]"),
        "{}",
        &after_summary[..200.min(after_summary.len())]
    );
    assert!(dom.contains("<span class=\"verdict rejected\">rejected</span>"));
}

/// A λP program: the stepper shows step 3 of λC and step 5 of λA (from
/// `#step=3,5`), each with the rules that step applied, and how each side
/// ends.
#[test]
fn the_stepper_moves_both_sides_of_theorem_6_37() {
    let scratch = ScratchDirectory::new("explain-stepper");
    let page = scratch.join("lifting.html");
    explain("tests/nested/lifting.lp", &page);
    let dom = rendered(&page, "step=3,5", &scratch);
    for (side, step) in [("lambda_c", 3), ("lambda_a", 5)] {
        let start = dom
            .find(&format!("data-side=\"{side}\""))
            .unwrap_or_else(|| panic!("no {side} side"));
        let html = &dom[start..];
        let html = &html[..html.find("<div class=\"end\">").unwrap() + 80];
        let shown = strip_tags(html);
        assert!(shown.contains(&format!("step {step} / ")), "{shown}");
        assert!(shown.contains("→ by L05 "), "{shown}");
        assert!(shown.contains("ends in a value (WHNF)"), "{shown}");
    }
}

/// Bad input: a file of another kind is a usage error (exit 2), a missing
/// one a located error (exit 1); neither writes a page.
#[test]
fn explain_refuses_what_it_cannot_explain() {
    let scratch = ScratchDirectory::new("explain-refuses");
    let page = scratch.join("page.html");
    let out = page.to_str().unwrap();
    let output = runestone(&["explain", "README.md", "--html", out]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("expected a .fut, .lp or .lc program"));
    let output = runestone(&["explain", "tests/no-such-program.fut", "--html", out]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("tests/no-such-program.fut"));
    assert!(!page.exists());
}
