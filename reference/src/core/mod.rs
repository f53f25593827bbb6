//! TFP'18 (Hovgaard, Henriksen, Elsman: "High-Performance Defunctionalisation
//! in Futhark"): the core language, its typing with the `orderZero`
//! restrictions, its big-step semantics with `err`, defunctionalisation with
//! static values, and the paper's lemmas and theorems as executable checks.
//!
//! # Code map
//!
//! | module | paper | what |
//! |---|---|---|
//! | [`syntax`] | §2.1 | types τ, expressions e (the paper's forms and the marked extensions), core programs |
//! | [`typing`] | §2.2, Fig. 2 | `τ orderZero`, `Γ ⊢ e : τ`, programs and entry points |
//! | [`value`] | §2.3 | values v, environments Σ, conversion to and from `spec::value` |
//! | [`primitive`] | §2.3 (extension) | Futhark's arithmetic on every primitive type |
//! | [`eval`] | §2.3, Figs. 3–4 | `Σ ⊢ e ↓ r` with `err` carrying a source span, the loop judgment, fuel |
//! | [`defunc`] | §3, Figs. 5–6 | static values, `E ⊢ e ⇝ ⟨e', sv⟩`, `⟦sv⟧tp`, target programs (inlining or §5.3 lifting) |
//! | [`relations`] | §4, Figs. 8–9 | `⊨ sv : τ`, `⊨ v : sv`, `⟦v⟧val`, Lemmas 2–4 |
//! | [`theorems`] | §4.4 | Theorem 1 on a program's two defunctionalisations; Theorem 2, Lemmas 1 and 4, Corollary 1 on every run |
//! | [`printer`] | Fig. 1b | target programs as Futhark-like text (`runestone defunc`) |
//!
//! The front end that prepares this module's input (surface programs to
//! core, monomorphisation, §5.1) and the whole-program driver are not here:
//! they are the crate's `front` module, which uses this one; this module
//! never names `front` or `modules`.
//!
//! # The core interface (for front ends such as the module calculus)
//!
//! A front end produces a [`syntax::Program`]: a sequence of
//! [`syntax::ValueDec`]s (each `name`, optional `type_params` with their
//! liftedness, the declared type `ty`, the number of syntactic parameters
//! `param_count`, and `value`, an expression whose first `param_count`
//! lambdas are those parameters) and [`syntax::EntryPoint`]s naming
//! monomorphic declarations with first-order parameter and result types.
//! Names are resolved (shadowing is allowed; a declaration sees only earlier
//! ones); every node carries the [`spec::source::Span`] that run-time errors
//! and type errors point at; polymorphic declarations are used through
//! `ExprKind::Var { type_args }` (explicit instantiation). Size checks are
//! `ExprKind::Assert` nodes (the front end binds size parameters with
//! `Intrinsic::Dim`). Tuples are records labelled `0`, `1`, …
//!
//! Then the front end's `compile_core` type-checks the program
//! ([`typing::check_program`], Fig. 2 + extensions; errors are
//! [`typing::TypeError`]s naming the rule, turned into diagnostics),
//! monomorphises it, defunctionalises it ([`defunc::Defunctionaliser`]) and
//! checks [`theorems::theorem_1`]; each run of an entry point is
//! [`theorems::run_checked`], which checks Theorem 2 and Corollary 1
//! against both target programs.
//!
//! # Invariants
//!
//! * Every rule of the paper is one match arm (or one function), tagged with
//!   a line comment naming it (`TFP18 <rule>`, or `Extension: TFP18 <rule>`
//!   for an extension), listed once in `proofs-notes/rules.toml`, and calls
//!   `crate::derivation::fire_rule` (coverage, and the derivation when one is
//!   recorded).
//! * No judgment panics on any input: ill-typed programs are type errors,
//!   stuck evaluations are reported (`eval::Failure::Stuck`), and every
//!   recursive judgment runs under `crate::derivation::judgment` (a grown
//!   stack, and a node of the recorded derivation).
//! * Evaluation is bounded by fuel (`eval::DEFAULT_FUEL` steps).
//! * Decisions on garbled figures and ambiguities are in
//!   `proofs-notes/SPEC_NOTES.md`; the status of every lemma and
//!   theorem is in `proofs-notes/tfp18.md`.

pub mod defunc;
pub mod eval;
pub mod primitive;
pub mod printer;
pub mod relations;
pub mod syntax;
pub mod theorems;
pub mod typing;
pub mod uniqueness;
pub mod value;
