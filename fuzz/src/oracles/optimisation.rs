//! The optimisation oracle (issue 6, items 2 and 6): what the value oracle
//! cannot see. A pass that stops firing, a SOAC the CPU backend no longer
//! vectorises, or a checker that accepts everything leaves every computed
//! value as it was, so the differential campaign passes; the mutation score
//! (`fuzz/findings/mutation_score.md`) counted such mutants as equivalent.
//! Here the optimising compiler's own output for a generated program is
//! judged instead:
//!
//! - **Folding is complete**: after the default pipeline (which ends with
//!   the simplifier) no operator whose operands are all constants is left,
//!   unless evaluating it may fail (an integer division by a constant zero,
//!   a power with a negative constant exponent: those stay so that they
//!   fail at run time), and no `if` on a constant condition.
//! - **The checkers reject a broken program**: the IR checker rejects the
//!   program's IR with one used statement removed (a use before any
//!   definition), and the core checker rejects the first-order core with
//!   the entry point's result type changed. A checker that accepted
//!   everything would make "the IR is checked after every pass" vacuous.
//! - **Evidence over a campaign** ([`OptimisationEvidence`]): for each pass
//!   of `optimized::passes::default_pipeline`, how many programs it
//!   changed, and which paths the CPU backend compiled the SOACs for
//!   (`optimized::cpu::machine::BackendStatistics`), and what flattening
//!   made of the fused IR (`optimized::flatten`: the flattened IR must
//!   check; its segmented operations are counted). A campaign asserts that
//!   every pass changed some program, that some SOAC was vectorised and
//!   that flattening made every kind of segmented operation.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::value::{optimized_compile, Run};
use super::Outcome;
use optimized::cpu::machine::BackendStatistics;
use optimized::flatten::SegmentedCounts;
use optimized::ir::effects::binop_can_fail;
use optimized::ir::{Body, Exp, Program, SubExp};
use optimized::passes::traverse::used_in_statement;
use optimized::pipeline::CompiledProgram;

/// What the optimising compiler did to the programs of a campaign.
#[derive(Clone, Debug, Default)]
pub struct OptimisationEvidence {
    /// Programs compiled.
    pub programs: usize,
    /// For each pass of the default pipeline, by name, how many programs
    /// it changed (a pass that runs several times counts a program once).
    pub changed_by_pass: BTreeMap<&'static str, usize>,
    /// The CPU backend's SOAC paths, summed.
    pub backend: BackendStatistics,
    /// Programs whose IR had no statement to remove (the IR checker's
    /// probe was skipped).
    pub checker_probes_skipped: usize,
    /// The segmented operations flattening made of the fused IR, summed
    /// (the deepest index space is the largest over the programs).
    pub segmented: SegmentedCounts,
}

impl OptimisationEvidence {
    /// Judges one compiled program and adds its evidence. An error names
    /// the first defect: an operator left unfolded, or a checker that
    /// accepted a broken program.
    pub fn add(&mut self, compiled: &CompiledProgram) -> Result<(), String> {
        self.programs += 1;
        if let Some(left) = first_unfolded_operator(&compiled.fused) {
            return Err(format!("left unfolded after optimisation: {left}"));
        }
        let mut changed = HashSet::new();
        let mut program = compiled.ir.clone();
        for (name, pass) in optimized::passes::default_pipeline() {
            let after = pass(program.clone());
            if after != program {
                changed.insert(name);
            }
            program = after;
        }
        for name in changed {
            *self.changed_by_pass.entry(name).or_default() += 1;
        }
        self.backend.add(compiled.backend_statistics());
        let flattened = optimized::flatten::flatten_program(&compiled.fused);
        if let Err(error) = optimized::ir::check_program(&flattened) {
            return Err(format!("the flattened IR is ill-typed: {error}"));
        }
        let counts = optimized::flatten::count_segmented_operations(&flattened);
        self.segmented.maps += counts.maps;
        self.segmented.reductions += counts.reductions;
        self.segmented.scans += counts.scans;
        self.segmented.host_soacs += counts.host_soacs;
        self.segmented.deepest_space = self.segmented.deepest_space.max(counts.deepest_space);
        match without_a_used_statement(&compiled.ir) {
            Some(broken) => {
                if optimized::ir::check_program(&broken).is_ok() {
                    return Err(
                        "the IR checker accepts the IR with a used statement removed".into(),
                    );
                }
            }
            None => self.checker_probes_skipped += 1,
        }
        let mut broken = compiled.defunc.clone();
        if change_entry_result_type(&mut broken) {
            let stage = optimized::core::check::Stage::Monomorphic;
            if optimized::core::check::check_program(&broken, "probe", stage).is_ok() {
                return Err(
                    "the core checker accepts a first-order core whose entry point's result type is changed"
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// The passes of the default pipeline that changed no program.
    pub fn passes_that_never_fired(&self) -> BTreeSet<&'static str> {
        optimized::passes::default_pipeline()
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| !self.changed_by_pass.contains_key(name))
            .collect()
    }
}

/// The oracle on one program (`runestone fuzz --oracle optimisation`): the
/// per-program judgements of [`OptimisationEvidence::add`]. A program the
/// optimising compiler does not compile is a discard (the value oracle
/// compares verdicts), one it breaks on (an internal error, a panic) a
/// disagreement.
pub fn examine_optimisation(source: &str, or_conditionals: bool) -> Outcome {
    let examine = || match optimized_compile(source, or_conditionals) {
        Ok(program) => match OptimisationEvidence::default().add(&program.compiled) {
            Ok(()) => Outcome::Agree { valid: true },
            Err(defect) => Outcome::Disagree {
                check: "optimisation".into(),
                message: defect,
            },
        },
        Err(Run::Broken(message)) => Outcome::Disagree {
            check: "optimized breaks".into(),
            message,
        },
        Err(Run::Unsupported(construct)) => {
            Outcome::Discard(format!("unsupported by optimized: {construct}"))
        }
        Err(_) => Outcome::Discard("rejected by optimized".into()),
    };
    catch_unwind(AssertUnwindSafe(examine)).unwrap_or_else(|_| Outcome::Disagree {
        check: "optimized breaks".into(),
        message: "panic".into(),
    })
}

/// The first operator of `program` whose operands are all constants and
/// whose evaluation cannot fail, or `if` on a constant, described.
pub fn first_unfolded_operator(program: &Program) -> Option<String> {
    program.functions.iter().find_map(|f| {
        unfolded_in_body(&f.body).map(|what| format!("{what} in function {}", f.name))
    })
}

fn unfolded_in_body(body: &Body) -> Option<String> {
    body.statements.iter().find_map(|statement| {
        let constant = |s: &SubExp| matches!(s, SubExp::Constant(_));
        let left = match &statement.expression {
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => constant(left) && constant(right) && !binop_can_fail(*op, *ty, right),
            Exp::CmpOp { left, right, .. } => constant(left) && constant(right),
            Exp::UnOp { operand, .. } | Exp::ConvOp { operand, .. } => constant(operand),
            Exp::If { condition, .. } => constant(condition),
            _ => false,
        };
        if left {
            return Some(format!("{:?}", statement.expression));
        }
        let nested = statement.expression.bodies().into_iter().chain(
            statement
                .expression
                .lambdas()
                .into_iter()
                .map(|lambda| &lambda.body),
        );
        nested.into_iter().find_map(unfolded_in_body)
    })
}

/// `program` without the first top-level statement of some function whose
/// results are used later in that function, or `None` if there is none.
fn without_a_used_statement(program: &Program) -> Option<Program> {
    for (f, function) in program.functions.iter().enumerate() {
        let statements = &function.body.statements;
        for i in 0..statements.len() {
            let defined: HashSet<_> = statements[i].pattern.iter().map(|p| &p.name).collect();
            let used_later = statements[i + 1..].iter().any(|later| {
                used_in_statement(later)
                    .iter()
                    .any(|name| defined.contains(name))
            }) || function.body.result.iter().any(|r| match r {
                SubExp::Var(v) => defined.contains(v),
                SubExp::Constant(_) => false,
            });
            if used_later {
                let mut broken = program.clone();
                broken.functions[f].body.statements.remove(i);
                return Some(broken);
            }
        }
    }
    None
}

/// Gives the first entry point of `core` a result type its body does not
/// have (`bool`, or `i32` where it was `bool`); false without an entry.
fn change_entry_result_type(core: &mut optimized::core::Program) -> bool {
    use optimized::core::{PrimType, Type};
    let Some(entry) = core.definitions.iter_mut().find(|d| d.entry) else {
        return false;
    };
    let result = &mut entry.function.result;
    *result = if *result == Type::Prim(PrimType::Bool) {
        Type::Prim(PrimType::I32)
    } else {
        Type::Prim(PrimType::Bool)
    };
    true
}
