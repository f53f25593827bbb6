//! `runestone reduce FILE [--oracle corpus] [--out FILE] [--budget N]`:
//! reduces a program on which the reference and the optimising compiler
//! differ (a verdict, a case's values or errors, an internal error: the
//! corpus oracle, `fuzz::oracles::corpus`) to a small program on which they
//! still differ by the same check, with `fuzz::reduce`, and writes it as a
//! `-- ==` test program ready for `tests/programs/`.

use fuzz::oracles::corpus::{examine_program, Difference};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// The program (with the `-- ==` cases that show the difference).
    file: PathBuf,
    /// The oracle whose finding is kept: `corpus` (the reference against
    /// the optimising compiler's CPU backend, on the program's verdict and
    /// its cases).
    #[arg(long, default_value = "corpus")]
    oracle: String,
    /// Where the reduced program goes (default: FILE with `.reduced.fut`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The most candidate programs examined.
    #[arg(long, default_value_t = 5000)]
    budget: usize,
}

const HELP: &str = "\
The program is examined first; without a difference there is nothing to
reduce (exit 1). Candidates are written next to FILE (so `import`s still
resolve) as a hidden file, removed at the end. Each kept edit prints the
program's size on stderr.

Exit status: 0 when a reduced program was written; 1 when FILE cannot be
read, shows no difference, or the result cannot be written; 2 on a usage
error.";

pub fn run(args: Args) -> ExitCode {
    if args.oracle != "corpus" {
        eprintln!(
            "runestone reduce: no oracle `{}` for programs outside a campaign (available: corpus)",
            args.oracle
        );
        return ExitCode::from(2);
    }
    let original = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("runestone reduce: cannot read {}: {e}", args.file.display());
            return ExitCode::from(1);
        }
    };
    let verdict = examine_program(&args.file);
    let Some(finding) = verdict.differences.first().cloned() else {
        eprintln!(
            "runestone reduce: the reference and the optimising compiler agree on {} ({} cases and verdicts agree{}): nothing to reduce",
            args.file.display(),
            verdict.agreed,
            if verdict.discards.is_empty() {
                String::new()
            } else {
                format!(", {} set aside: {}", verdict.discards.len(), verdict.discards.join("; "))
            }
        );
        return ExitCode::from(1);
    };
    eprintln!("reducing {}: {finding}", args.file.display());
    let scratch = scratch_path(&args.file);
    let mut interesting = |candidate: &str| {
        std::fs::write(&scratch, candidate).is_ok()
            && examine_program(&scratch)
                .differences
                .iter()
                .any(|d| d.check == finding.check)
    };
    let mut progress = |current: &str| {
        eprintln!("  kept an edit: {} lines", current.lines().count());
    };
    let reduction = fuzz::reduce::reduce(&original, args.budget, &mut interesting, &mut progress);
    std::fs::remove_file(&scratch).ok();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.file.with_extension("reduced.fut"));
    let written = format!("{}{}", header(&args.file, &finding), reduction.program);
    if let Err(e) = std::fs::write(&out, written) {
        eprintln!("runestone reduce: cannot write {}: {e}", out.display());
        return ExitCode::from(1);
    }
    println!(
        "{}: {} lines -> {} lines ({} candidates examined, {} edits kept{}); written to {}",
        args.file.display(),
        original.lines().count(),
        reduction.program.lines().count(),
        reduction.candidates,
        reduction.kept,
        if reduction.budget_exhausted {
            ", stopped at --budget"
        } else {
            ""
        },
        out.display()
    );
    ExitCode::SUCCESS
}

/// A hidden file next to `file` for the candidates.
fn scratch_path(file: &Path) -> PathBuf {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    file.with_file_name(format!(".runestone-reduce-{}-{name}", std::process::id()))
}

/// The comment that says where a reduced program comes from.
fn header(file: &Path, finding: &Difference) -> String {
    let message: String = finding
        .message
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    format!(
        "-- Reduced by `runestone reduce` from {}: {}: {}\n-- {message}\n",
        file.display(),
        finding.what,
        finding.check
    )
}
