//! The one seam between runestone's implementations and everything that
//! runs programs (DESIGN.md, "Workspace layout": `driver/`).
//!
//! The CLI's `run`, `test` and `bench`, every differential oracle of `fuzz/`,
//! the benchmarks and the corpus test harness (`tests/programs.rs`) run
//! programs through this crate and nothing else:
//!
//! - [`backend`]: which implementation runs a program ([`Backend`]), and how
//!   closely its floats must match ([`Backend::tolerance`]);
//! - [`load`]: compiling a program for a backend ([`load::load`]) into a
//!   [`LoadedProgram`], the one trait every backend implements, with the one
//!   file-system import rule (`spec::imports`);
//! - [`outcome`]: typed outcomes: a program is rejected (with its code and
//!   rule), unsupported, out of fuel, fails at run time (with its location),
//!   or breaks the implementation ([`LoadError`], [`RunError`]) — decided on
//!   diagnostic codes ([`spec::diagnostic::DiagnosticKind`]), never on text;
//! - [`signature`]: entry points' types as Futhark's tools print them;
//! - [`server`]: Futhark's server protocol over a [`LoadedProgram`]
//!   (`runestone serve`), the interface `futhark test`, `futhark bench` and
//!   the `futhark-server` Python client drive programs through;
//! - [`discover`]: the `.fut` programs under some paths;
//! - [`cases`]: `-- ==` test blocks executed case by case, every input form
//!   (inline, `@ FILE`, `random input`) and every expected outcome;
//! - [`isolation`] and [`worker_events`]: a program tested in a worker
//!   process that streams its cases' events, so that a crash or a timeout is
//!   the program's failure (`runestone test`).
//!
//! Adding a backend is one variant of [`Backend`], one arm of
//! [`load::load`] and an implementation of [`LoadedProgram`].

pub mod backend;
pub mod cases;
pub mod discover;
pub mod isolation;
pub mod load;
pub mod outcome;
pub mod server;
pub mod signature;
pub mod worker_events;

pub use backend::{Backend, BackendSelection, COMPILED_FLOAT_ULPS};
pub use load::{load, LoadOptions, LoadedProgram};
pub use outcome::{LoadError, RunError, RunErrorKind};
