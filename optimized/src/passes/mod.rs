//! The optimisation passes over the SOAC IR (issue 5, item 5), each a
//! function `Program -> Program` run through the IR's pass manager (which
//! re-checks the program after every pass):
//!
//! - [`simplify`]: constant folding, copy propagation, CSE, dead code;
//! - [`inline`]: inlining of functions called once or small;
//! - [`unroll`]: full unrolling of small constant-count `for` loops;
//! - [`index_fusion`]: a cheap `map` nest recomputed where its elements are
//!   read, when they are only read;
//! - [`fusion`]: producer–consumer fusion of SOACs (`map∘map`, `map` into
//!   `reduce`/`scan`/`filter`) and horizontal fusion of maps;
//! - [`hoisting`]: loop-invariant code motion out of loops and lambdas;
//! - [`traverse`]: the visitors they share (on the one walk, `ir::visit`).
//!
//! [`default_pipeline`] is the order the compiler uses.

pub mod fusion;
pub mod hoisting;
pub mod index_fusion;
pub mod inline;
pub mod simplify;
pub mod traverse;
pub mod unroll;

use crate::ir::{PassError, PassManager, Program};

/// A named pass.
pub type Pass = (&'static str, fn(Program) -> Program);

/// The compiler's order: `simplify → inline → simplify → unroll → simplify
/// → index_fusion → simplify → fusion → simplify → hoisting → simplify`.
pub fn default_pipeline() -> Vec<Pass> {
    vec![
        ("simplify", simplify::simplify),
        ("inline", inline::inline),
        ("simplify", simplify::simplify),
        ("unroll", unroll::unroll),
        ("simplify", simplify::simplify),
        ("index_fusion", index_fusion::index_fusion),
        ("simplify", simplify::simplify),
        ("fusion", fusion::fusion),
        ("simplify", simplify::simplify),
        ("hoisting", hoisting::hoisting),
        ("simplify", simplify::simplify),
    ]
}

/// Runs `passes` in order through a [`PassManager`] (the IR is checked after
/// each one; a failure names the pass and prints its IR).
pub fn run_passes(program: Program, passes: &[Pass]) -> Result<Program, PassError> {
    let mut manager = PassManager::new();
    let mut program = program;
    for (name, pass) in passes {
        program = manager.run(name, program, pass)?;
    }
    Ok(program)
}

/// Runs [`default_pipeline`].
pub fn optimise(program: Program) -> Result<Program, PassError> {
    run_passes(program, &default_pipeline())
}
