//! Type-directed generators of well-typed programs (issue 6, part 1).
//!
//! Every program is generated *typed*: the generator carries a typing
//! environment ([`env::Env`]) and, for each requested type, picks a construct
//! that produces it ([`core`]); declarations, functions, modules and the entry
//! point are built around that ([`program`], [`modules`]). All decisions read
//! one stream of [`choices::Choices`], so a program is a pure function of its
//! choice sequence and a seed names a program forever.
//!
//! - [`generate`]`(seed, &config)`: the deterministic entry point for
//!   campaigns; [`generate_from_choices`] replays a recorded choice sequence.
//! - [`mutate::mutate`], [`mutate::mutate_kind`]: an ill-typed neighbour of a
//!   well-typed program (one premise broken), with the premise it breaks;
//!   [`site_kinds`] lists the premises a program could have broken.
//! - [`shrink`]: proptest strategies whose shrinking edits the choice sequence
//!   (well-typed by construction after every step).
//! - [`arbitrary`]: quickcheck `Arbitrary` wrappers.
//! - [`coverage`]: which constructs a program uses (tests, campaign reports).
//!
//! The typing rules the generator assumes are in `typing_notes.md`.

pub mod arbitrary;
mod build;
pub mod choices;
pub mod core;
pub mod coverage;
pub mod env;
pub mod modules;
pub mod mutate;
pub mod program;
pub mod shrink;
pub mod types;

use choices::Choices;
use mutate::MutationKind;
use spec::syntax::ast::{Program, TypeExp};
use spec::value::Value;

/// The shortest array argument of unknown size under
/// [`GenConfig::long_arrays`]: the optimising CPU backend's parallel
/// threshold, so those arrays are split into chunks.
pub const LONG_ARRAY_LENGTH: u64 = optimized::cpu::PARALLEL_THRESHOLD as u64;

/// Relative weights of the main alternatives of the expression generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub leaf: u32,
    pub let_binding: u32,
    pub branch: u32,
    pub loops: u32,
    pub application: u32,
    pub arithmetic: u32,
    pub soac: u32,
    pub lambda: u32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            leaf: 10,
            let_binding: 3,
            branch: 2,
            loops: 1,
            application: 4,
            arithmetic: 3,
            soac: 3,
            lambda: 4,
        }
    }
}

/// Size controls and switches for generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Depth of expression trees in function bodies.
    pub depth: u32,
    /// Most top-level function declarations (besides the entry point).
    pub max_declarations: u32,
    /// Generate module types, structures, functors and applications.
    pub modules: bool,
    /// Allow unguarded indexing that may fail at run time (the program's
    /// result may then be an index-out-of-bounds error on every backend).
    pub may_fail: bool,
    /// Restrict the core to ICFP'18's paper core (`i32`, abstract types,
    /// functions; variables, literals, `+ - *`, application, `λ`,
    /// ascription), so the module-level programs can be checked by the
    /// reference's module elaborator before the full core exists there.
    pub paper_core: bool,
    /// Generate local opens `M.(e)` (both implementations elaborate them;
    /// the reference since issue 26, SPEC_NOTES ICFP18-26).
    pub local_open: bool,
    /// TFP'18 §7's extension (`Options::or_conditionals` of the reference
    /// pipeline): `if` may also return functions. Programs generated with it
    /// are well typed only under that option (Futhark rejects them).
    pub or_conditionals: bool,
    /// Give the entry point's array arguments of unknown size
    /// [`LONG_ARRAY_LENGTH`] to [`LONG_ARRAY_LENGTH`]` + 4` elements instead
    /// of 0–4, so that SOACs over them can take the optimising CPU
    /// backend's chunked, parallel paths (`optimized::cpu::PARALLEL_THRESHOLD`),
    /// which short arrays never reach (the mutation campaign,
    /// `fuzz/findings/mutation_score.md`). The entry point then also returns
    /// `scan (+) 0 xs` of its first such parameter of a numeric type, since
    /// generated bodies seldom consume their parameters.
    pub long_arrays: bool,
    /// Also use the numeric modules' functions, operators and constants
    /// (`T.min`, `T.max`, `T.abs`, `(T.-)`, `a T.* b`, `T.lowest`,
    /// `T.highest`, `f32.isnan`, `f64.isinf`, the bit-level and special
    /// functions `T.mul_hi`, `T.set_bit`, `S.popc`, `F.to_bits`,
    /// `T.nextafter`, …) in arithmetic and in conversions to `bool`: the mutation campaign
    /// found the optimising compiler's lowering of them unchecked
    /// (`fuzz/findings/mutation_score.md`). Off by default, so the programs
    /// of every other campaign and seed stay as they were.
    pub numeric_functions: bool,
    /// Also give the entry point parameters of tuple, record and sum types
    /// (their components primitives, pairs of primitives or the program's
    /// sum types), with argument values of those types: the mutation
    /// campaign found the optimising CPU backend's conversion of such
    /// arguments (`optimized::cpu::value::flatten_value`) unchecked, since
    /// entry parameters were otherwise primitives and arrays of them
    /// (`fuzz/findings/mutation_score.md`). Off by default.
    pub structured_arguments: bool,
    /// Also count the mutation sites of [`mutate::MutationKind::EXTRA`]: a
    /// module path whose first module does not exist (`open
    /// absent_module.inner`) and a function applied to itself (`\y -> y y`,
    /// an infinite type; the occurs check), which the type checkers' module
    /// path lookup and unifier must reject (`fuzz/findings/mutation_score.md`),
    /// and, in module programs, of [`mutate::MutationKind::EXTRA_MODULES`]: a
    /// value of one opaque module's abstract type passed where another's is
    /// expected (the unifier's rigid type constructors).
    /// Off by default, so the mutants of every other campaign and seed stay
    /// as they were.
    pub extra_mutations: bool,
    /// Also declare `def fill_sized 't (n: i64) (x: t) : [n]t = replicate n
    /// x`, whose result's size is its argument's value, and build arrays of
    /// primitives of a known size with it where `replicate` would go (`zip`
    /// and the other size-checked places then rely on the size the call's
    /// argument gives): the mutation campaign found the optimising type
    /// checker's value-dependent function types (`(n: i64) -> [n]t`)
    /// unchecked, since generated functions' result sizes never named a
    /// parameter (`fuzz/findings/mutation_score.md`). Off by default.
    pub value_dependent_sizes: bool,
    /// The seed [`generate`] uses when called through [`generate_default`].
    pub seed: u64,
    pub weights: Weights,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            depth: 3,
            max_declarations: 2,
            modules: true,
            may_fail: false,
            paper_core: false,
            local_open: true,
            or_conditionals: false,
            long_arrays: false,
            numeric_functions: false,
            structured_arguments: false,
            extra_mutations: false,
            value_dependent_sizes: false,
            seed: 0,
            weights: Weights::default(),
        }
    }
}

/// A generated program with what a differential test needs to run it.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedProgram {
    pub program: Program,
    /// The entry point's name (`main`).
    pub entry: String,
    /// Values for the entry point's parameters, in order.
    pub arguments: Vec<Value>,
    /// The entry point's declared result type.
    pub result_type: TypeExp,
    /// The choice sequence that regenerates this program
    /// ([`generate_from_choices`]).
    pub choices: Vec<u32>,
    /// Whether the program may end in a run-time error (`GenConfig::may_fail`).
    pub may_fail: bool,
}

impl GeneratedProgram {
    /// The program as Futhark source.
    pub fn source(&self) -> String {
        spec::syntax::printer::print_program(&self.program)
    }

    /// Lines of the printed source.
    pub fn line_count(&self) -> usize {
        self.source().lines().count()
    }
}

/// The choices one compound construct consumed: `decision` picked it
/// (zero picks the simplest alternative), `start..end` built it. Shrinking
/// tries deleting `start..end` and zeroing `decision` (see [`shrink`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceSpan {
    pub decision: usize,
    pub start: usize,
    pub end: usize,
}

/// Counters of rare events, for tests and reports.
#[derive(Clone, Debug, Default)]
pub struct EventCounters {
    pub shadowing: usize,
}

/// The state of one generation run.
pub struct Generator {
    pub(crate) choices: Choices,
    pub(crate) config: GenConfig,
    next_name: usize,
    /// The mutation site to break (`None`: generate a well-typed program).
    target_site: Option<usize>,
    sites_seen: usize,
    applied: Option<MutationKind>,
    pub(crate) counters: EventCounters,
    /// Operator names already defined (each at most once per program).
    pub(crate) used_operators: Vec<String>,
    /// Names defined so far in the structure body being generated (a
    /// structure may not define one name twice).
    pub(crate) names_in_level: Vec<String>,
    pub(crate) world: modules::World,
    /// Spans of compound constructs, for shrinking.
    pub(crate) spans: Vec<ChoiceSpan>,
    /// The kind of every mutation site seen, in order.
    pub(crate) site_kinds: Vec<MutationKind>,
}

impl Generator {
    pub fn new(choices: Choices, config: GenConfig) -> Generator {
        Generator {
            choices,
            config,
            next_name: 0,
            target_site: None,
            sites_seen: 0,
            applied: None,
            counters: EventCounters::default(),
            used_operators: Vec::new(),
            names_in_level: Vec::new(),
            world: modules::World::default(),
            spans: Vec::new(),
            site_kinds: Vec::new(),
        }
    }

    /// A name never used before in this program, and never the name of a
    /// primitive type (`fresh("u")` would otherwise give `u8` or `u16`: a
    /// type abbreviation of that name shadows the primitive type in the
    /// generator's later type annotations, whose literals stay primitive).
    pub(crate) fn fresh(&mut self, prefix: &str) -> String {
        loop {
            self.next_name += 1;
            let name = format!("{prefix}{}", self.next_name);
            if spec::value::PrimType::from_name(&name).is_none() {
                return name;
            }
        }
    }

    /// Counts a place where `kind` could break a premise; `true` when this
    /// is the site to break.
    pub(crate) fn mutation_site(&mut self, kind: MutationKind) -> bool {
        let site = self.sites_seen;
        self.sites_seen += 1;
        self.site_kinds.push(kind);
        if self.target_site == Some(site) && self.applied.is_none() {
            self.applied = Some(kind);
            return true;
        }
        false
    }
}

/// The program named by `seed` under `config` (deterministic).
pub fn generate(seed: u64, config: &GenConfig) -> GeneratedProgram {
    run(Choices::random(seed), config, None).0
}

/// The program named by `config.seed`.
pub fn generate_default(config: &GenConfig) -> GeneratedProgram {
    generate(config.seed, config)
}

/// The program a choice sequence names (shrinking replays edited sequences).
pub fn generate_from_choices(choices: Vec<u32>, config: &GenConfig) -> GeneratedProgram {
    run(Choices::replay(choices), config, None).0
}

/// The spans of compound constructs in the program `choices` names.
pub fn choice_spans(choices: Vec<u32>, config: &GenConfig) -> Vec<ChoiceSpan> {
    let mut generator = Generator::new(Choices::replay(choices), config.clone());
    generator.program();
    generator.spans
}

/// The kind of every mutation site of the program `choices` names, in order.
pub fn site_kinds(choices: Vec<u32>, config: &GenConfig) -> Vec<MutationKind> {
    let mut generator = Generator::new(Choices::replay(choices), config.clone());
    generator.program();
    generator.site_kinds
}

/// One run: the program, the number of mutation sites seen and the mutation
/// applied (if `target_site` was given and reached).
pub(crate) fn run(
    choices: Choices,
    config: &GenConfig,
    target_site: Option<usize>,
) -> (GeneratedProgram, usize, Option<MutationKind>) {
    let mut generator = Generator::new(choices, config.clone());
    generator.target_site = target_site;
    let (program, arguments, result_type) = generator.program();
    let sites = generator.sites_seen;
    let applied = generator.applied;
    let generated = GeneratedProgram {
        program,
        entry: "main".to_string(),
        arguments,
        result_type,
        choices: generator.choices.into_used(),
        may_fail: config.may_fail,
    };
    (generated, sites, applied)
}
