//! `runestone benchcmp OLD.json NEW.json`: compares two results of
//! `runestone bench --json` (or `futhark bench --json`: the same layout),
//! dataset by dataset: the speedup of the mean run time, and whether the
//! difference is significant — Welch's t-test at the 5 % level, and more
//! than the noise threshold (`--noise`, 2 % by default, as criterion's noise
//! threshold: two runs of one build on a shared machine differ by that much).

use super::statistics::{summary, welch_p_value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// The earlier results (`runestone bench --json OLD.json`).
    old: PathBuf,
    /// The later results.
    new: PathBuf,
    /// A change of the mean by at most this fraction is noise, whatever
    /// the test says.
    #[arg(long, default_value_t = 0.02)]
    noise: f64,
    /// Exit 1 when some dataset is significantly slower in NEW.
    #[arg(long)]
    fail_on_slowdown: bool,
}

const HELP: &str = "\
One line per dataset present in both files:
  prog.fut:main #0 (input { ... }): 1234µs -> 2468µs, speedup 0.50x: significantly slower (p = 3.1e-12)
`speedup` is OLD's mean over NEW's (above 1: NEW is faster). A difference is
significant when Welch's two-sided t-test gives p < 0.05 and the means differ
by more than --noise. Datasets found in only one file, or that failed in
either, are listed after.

Exit status: 0; 1 if a file cannot be read or is not in the layout of
`runestone bench --json` (the reason and position are printed), or with
--fail-on-slowdown if some dataset is significantly slower.";

/// Run times in µs per `benchmark`, per dataset; or why the dataset failed.
type Results = BTreeMap<(String, String), Result<Vec<f64>, String>>;

/// How one dataset changed.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Faster,
    Slower,
    WithinNoise,
    NotSignificant,
}

pub fn run(args: Args) -> ExitCode {
    if args.noise.is_nan() || args.noise < 0.0 {
        eprintln!("runestone benchcmp: --noise must be a non-negative fraction");
        return ExitCode::from(2);
    }
    let (old, new) = match (read_results(&args.old), read_results(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(why), _) | (_, Err(why)) => {
            eprintln!("runestone benchcmp: {why}");
            return ExitCode::from(1);
        }
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut notes = Vec::new();
    for (key, old_result) in &old {
        let (benchmark, dataset) = key;
        let Some(new_result) = new.get(key) else {
            notes.push(format!(
                "only in {}: {benchmark} {dataset}",
                args.old.display()
            ));
            continue;
        };
        let (old_runs, new_runs) = match (old_result, new_result) {
            (Ok(a), Ok(b)) if !a.is_empty() && !b.is_empty() => (a, b),
            (Err(why), _) | (_, Err(why)) => {
                notes.push(format!(
                    "failed: {benchmark} {dataset}: {}",
                    first_line(why)
                ));
                continue;
            }
            _ => {
                notes.push(format!("no runs: {benchmark} {dataset}"));
                continue;
            }
        };
        let (old_mean, new_mean) = (summary(old_runs).mean, summary(new_runs).mean);
        let p = welch_p_value(old_runs, new_runs);
        let verdict = judge(old_mean, new_mean, p, args.noise);
        let said = match verdict {
            Verdict::Faster => "significantly faster",
            Verdict::Slower => "significantly slower",
            Verdict::WithinNoise => "within noise",
            Verdict::NotSignificant => "no significant difference",
        };
        *counts.entry(said).or_default() += 1;
        println!(
            "{benchmark} {dataset}: {old_mean:.0}µs -> {new_mean:.0}µs, speedup {:.2}x: {said} (p = {p:.2e})",
            old_mean / new_mean
        );
    }
    for key in new.keys().filter(|k| !old.contains_key(*k)) {
        notes.push(format!(
            "only in {}: {} {}",
            args.new.display(),
            key.0,
            key.1
        ));
    }
    for note in &notes {
        println!("{note}");
    }
    let compared: usize = counts.values().sum();
    let parts: Vec<String> = counts
        .iter()
        .map(|(said, n)| format!("{n} {said}"))
        .collect();
    println!(
        "{compared} datasets compared{}{}",
        if parts.is_empty() { "" } else { ": " },
        parts.join(", ")
    );
    if args.fail_on_slowdown && counts.contains_key("significantly slower") {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn judge(old_mean: f64, new_mean: f64, p: f64, noise: f64) -> Verdict {
    if (new_mean / old_mean - 1.0).abs() <= noise {
        Verdict::WithinNoise
    } else if p >= 0.05 {
        Verdict::NotSignificant
    } else if new_mean < old_mean {
        Verdict::Faster
    } else {
        Verdict::Slower
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Reads a file in `futhark bench`'s JSON layout.
fn read_results(path: &Path) -> Result<Results, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let document: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{name}:{}:{}: not JSON: {e}", e.line(), e.column()))?;
    let layout = |what: &str| {
        format!("{name}: {what} (expected the layout of `runestone bench --json`: {{\"prog.fut:main\": {{\"datasets\": {{CASE: {{\"runtimes\": [...]}}}}}}}})")
    };
    let benchmarks = document
        .as_object()
        .ok_or_else(|| layout("the document is not an object"))?;
    let mut results = Results::new();
    for (benchmark, value) in benchmarks {
        let datasets = value
            .get("datasets")
            .and_then(serde_json::Value::as_object)
            .ok_or_else(|| layout(&format!("`{benchmark}` has no \"datasets\" object")))?;
        for (dataset, result) in datasets {
            let entry = match result {
                serde_json::Value::String(error) => Err(error.clone()),
                serde_json::Value::Object(fields) => {
                    let runtimes = fields
                        .get("runtimes")
                        .and_then(serde_json::Value::as_array)
                        .and_then(|runs| runs.iter().map(serde_json::Value::as_f64).collect())
                        .ok_or_else(|| {
                            layout(&format!(
                                "`{benchmark}` dataset `{dataset}` has no \"runtimes\" list of numbers"
                            ))
                        })?;
                    Ok(runtimes)
                }
                _ => {
                    return Err(layout(&format!(
                        "`{benchmark}` dataset `{dataset}` is neither a result nor an error"
                    )))
                }
            };
            results.insert((benchmark.clone(), dataset.clone()), entry);
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_need_significance_and_more_than_noise() {
        assert_eq!(judge(100.0, 200.0, 1e-9, 0.02), Verdict::Slower);
        assert_eq!(judge(200.0, 100.0, 1e-9, 0.02), Verdict::Faster);
        assert_eq!(judge(100.0, 101.0, 1e-9, 0.02), Verdict::WithinNoise);
        assert_eq!(judge(100.0, 150.0, 0.2, 0.02), Verdict::NotSignificant);
    }
}
