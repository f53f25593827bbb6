//! The implementations that run programs, and how closely each must match
//! an expected value (DESIGN.md, "The pipelines": integers exactly, floats
//! bitwise except where a compiled backend may reassociate).

use spec::value::Tolerance;
use std::fmt;

/// The float tolerance of compiled backends, in units in the last place
/// (defined in `spec::value`, shared by every comparison of results).
pub use spec::value::COMPILED_FLOAT_ULPS;

/// An implementation that runs programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Backend {
    /// The papers' judgments, executable (`reference/`): slow, the oracle.
    Reference,
    /// The optimising compiler's parallel CPU backend (`optimized/`).
    Cpu,
    /// SPIR-V kernels through Vulkan (`gpu/`).
    Gpu,
}

impl Backend {
    /// Every backend, the oracle first.
    pub const ALL: [Backend; 3] = [Backend::Reference, Backend::Cpu, Backend::Gpu];

    /// The name `--backend` takes.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Reference => "reference",
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
        }
    }

    /// The backend called `name`.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// How closely this backend's floats must match the reference's. The
    /// reference evaluates in source order, so it must match exactly;
    /// compiled backends may reassociate `reduce`/`scan` on floats, so they
    /// get [`COMPILED_FLOAT_ULPS`]. (A test block's written expected output
    /// is compared as `futhark test` compares it instead,
    /// `Tolerance::FutharkTest`, on every backend.)
    pub fn tolerance(self) -> Tolerance {
        match self {
            Backend::Reference => Tolerance::Exact,
            Backend::Cpu | Backend::Gpu => Tolerance::Ulps(COMPILED_FLOAT_ULPS),
        }
    }

    /// Whether the backend has the reference's step limit (fuel): a case
    /// that expects running out of it would not terminate elsewhere.
    pub fn has_fuel(self) -> bool {
        self == Backend::Reference
    }

    /// Whether the backend is an interpreter: `compiled` cases are skipped
    /// on it, as `futhark test` skips them on `futhark run`.
    pub fn is_interpreter(self) -> bool {
        self == Backend::Reference
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `--backend` of `test`: one backend, or every backend that is available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum BackendSelection {
    Reference,
    Cpu,
    Gpu,
    /// Every backend; those not available are reported as skipped.
    All,
}

impl BackendSelection {
    /// The backends selected, the oracle first.
    pub fn backends(self) -> Vec<Backend> {
        match self {
            BackendSelection::Reference => vec![Backend::Reference],
            BackendSelection::Cpu => vec![Backend::Cpu],
            BackendSelection::Gpu => vec![Backend::Gpu],
            BackendSelection::All => Backend::ALL.to_vec(),
        }
    }
}
