//! Ill-typed neighbours of well-typed programs: exactly one typing premise
//! broken, for checking that every implementation rejects the same programs.
//!
//! The generator counts *mutation sites* as it builds a program (an `if`, an
//! application argument, a lambda, a functor application, ...). Mutating
//! replays the program's choice sequence with one site selected: that site is
//! built broken (deterministically, e.g. an `else` branch replaced by a literal
//! of another type) and everything else is generated as before, so the result
//! differs from a well-typed program in exactly one premise.

use super::choices::Choices;
use super::{run, site_kinds, GenConfig, GeneratedProgram};

/// Which premise a mutation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MutationKind {
    IfConditionNotBool,
    IfBranchesDiffer,
    OperandMismatch,
    ArgumentMismatch,
    UnboundVariable,
    ArrayElementsDiffer,
    AnnotationMismatch,
    MissingField,
    UnknownConstructor,
    SizeMismatch,
    FunctionFromIf,
    FunctionFromLoop,
    FunctionInArray,
    AbstractTypeLeak,
    HigherOrderEntryPoint,
    ReturnTypeMismatch,
    MissingValInFunctorArgument,
    FunctionForUnliftedParameter,
    LiftedValueFromIf,
    LiteralOutOfRange,
    UpdateOfAnUncopiedArray,
    UpdateOfANonUniqueParameter,
    UseAfterConsume,
    LoopResultAliasesAnOuterArray,
    UnknownModule,
    InfiniteType,
    AbstractTypesMixed,
    MissingValInAscription,
}

impl MutationKind {
    /// Every kind counted by default, for coverage reports ([`Self::EXTRA`]:
    /// the others).
    pub const ALL: [MutationKind; 24] = [
        MutationKind::IfConditionNotBool,
        MutationKind::IfBranchesDiffer,
        MutationKind::OperandMismatch,
        MutationKind::ArgumentMismatch,
        MutationKind::UnboundVariable,
        MutationKind::ArrayElementsDiffer,
        MutationKind::AnnotationMismatch,
        MutationKind::MissingField,
        MutationKind::UnknownConstructor,
        MutationKind::SizeMismatch,
        MutationKind::FunctionFromIf,
        MutationKind::FunctionFromLoop,
        MutationKind::FunctionInArray,
        MutationKind::AbstractTypeLeak,
        MutationKind::HigherOrderEntryPoint,
        MutationKind::ReturnTypeMismatch,
        MutationKind::MissingValInFunctorArgument,
        MutationKind::FunctionForUnliftedParameter,
        MutationKind::LiftedValueFromIf,
        MutationKind::LiteralOutOfRange,
        MutationKind::UpdateOfAnUncopiedArray,
        MutationKind::UpdateOfANonUniqueParameter,
        MutationKind::UseAfterConsume,
        MutationKind::LoopResultAliasesAnOuterArray,
    ];

    /// The kinds counted only under `GenConfig::extra_mutations`.
    pub const EXTRA: [MutationKind; 2] = [MutationKind::UnknownModule, MutationKind::InfiniteType];

    /// The kinds counted only under `GenConfig::extra_mutations` in module
    /// programs (a module-free program has no site of them).
    pub const EXTRA_MODULES: [MutationKind; 2] = [
        MutationKind::AbstractTypesMixed,
        MutationKind::MissingValInAscription,
    ];

    /// Whether every mutant of this kind is ill typed. An update of an
    /// array that is not copied first is well typed when the array is fresh
    /// (`map f xs with [0] = v`) and not used afterwards: the verdict oracle
    /// asks only that both checkers agree on such a mutant.
    pub fn always_ill_typed(self) -> bool {
        self != MutationKind::UpdateOfAnUncopiedArray
    }

    /// The premise broken, in words.
    pub fn premise(self) -> &'static str {
        match self {
            MutationKind::IfConditionNotBool => "the condition of an if is not bool",
            MutationKind::IfBranchesDiffer => "if-branches differ in type",
            MutationKind::OperandMismatch => "operands of a binary operator differ in type",
            MutationKind::ArgumentMismatch => "function applied to wrong argument type",
            MutationKind::UnboundVariable => "variable not in scope",
            MutationKind::ArrayElementsDiffer => "array literal elements differ in type",
            MutationKind::AnnotationMismatch => {
                "let-pattern annotation differs from the bound value's type"
            }
            MutationKind::MissingField => "projection of a field the record does not have",
            MutationKind::UnknownConstructor => "match case with a constructor not in the sum type",
            MutationKind::SizeMismatch => "zip or map2 of arrays of different constant sizes",
            MutationKind::FunctionFromIf => "TFP'18 orderZero: an if returns a function",
            MutationKind::FunctionFromLoop => "TFP'18 orderZero: a loop returns a function",
            MutationKind::FunctionInArray => "TFP'18 orderZero: an array holds functions",
            MutationKind::AbstractTypeLeak => {
                "opaque ascription: a value of the hidden carrier used as the abstract type"
            }
            MutationKind::HigherOrderEntryPoint => "entry point with a function-typed parameter",
            MutationKind::ReturnTypeMismatch => {
                "function body differs from its declared return type"
            }
            MutationKind::MissingValInFunctorArgument => "missing val in functor argument",
            MutationKind::FunctionForUnliftedParameter => {
                "TFP'18: a function passed where an unlifted type parameter 'a is expected"
            }
            MutationKind::LiftedValueFromIf => {
                "TFP'18: an if returns a value of lifted type '^a (not orderZero)"
            }
            MutationKind::LiteralOutOfRange => {
                "a numeric literal past its type's range (SPEC_NOTES TFP18-32)"
            }
            MutationKind::UpdateOfAnUncopiedArray => {
                "an in-place update of an array that is not copied first, which may consume \
                 what is not consumable or is used later (proofs-notes/uniqueness.md U-Update)"
            }
            MutationKind::UpdateOfANonUniqueParameter => {
                "an in-place update of an entry parameter not declared unique `*` \
                 (proofs-notes/uniqueness.md U-Consume)"
            }
            MutationKind::UseAfterConsume => {
                "an entry parameter used after the update that consumes it \
                 (proofs-notes/uniqueness.md U-Var)"
            }
            MutationKind::LoopResultAliasesAnOuterArray => {
                "a loop that updates its parameter in place returns an array bound \
                 outside it (proofs-notes/uniqueness.md U-Loop, loop-aliases)"
            }
            MutationKind::UnknownModule => "a module path whose first module does not exist",
            MutationKind::InfiniteType => "a function applied to itself (an infinite type)",
            MutationKind::MissingValInAscription => {
                "a structure ascribed a module type without a val it specifies \
                 (ICFP'18 rule 37: E'' ≤ Σ)"
            }
            MutationKind::AbstractTypesMixed => {
                "a value of one opaque module's abstract type where another's is expected"
            }
        }
    }
}

/// An ill-typed program and the premise it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutant {
    pub program: GeneratedProgram,
    pub kind: MutationKind,
    /// The index of the mutated site among the program's sites.
    pub site: usize,
}

/// The number of mutation sites in the program `choices` names.
pub fn site_count(choices: &[u32], config: &GenConfig) -> usize {
    run(Choices::replay(choices.to_vec()), config, None).1
}

/// Breaks site `selector % sites` of `original` (`None` if it has no site,
/// or if breaking it leaves the program as it was).
pub fn mutate(original: &GeneratedProgram, selector: u32, config: &GenConfig) -> Option<Mutant> {
    let sites = site_count(&original.choices, config);
    if sites == 0 {
        return None;
    }
    let site = selector as usize % sites;
    mutate_site(&original.choices, site, config).filter(|m| m.program.program != original.program)
}

/// Breaks site number `site` of the program `choices` names.
pub fn mutate_site(choices: &[u32], site: usize, config: &GenConfig) -> Option<Mutant> {
    let (program, _, applied) = run(Choices::replay(choices.to_vec()), config, Some(site));
    applied.map(|kind| Mutant {
        program,
        kind,
        site,
    })
}

/// Breaks a site of kind `kind` (the `selector % n`-th of the `n` such sites)
/// of `original`, if it has one: for campaigns that test one premise.
pub fn mutate_kind(
    original: &GeneratedProgram,
    kind: MutationKind,
    selector: u32,
    config: &GenConfig,
) -> Option<Mutant> {
    let sites: Vec<usize> = site_kinds(original.choices.clone(), config)
        .into_iter()
        .enumerate()
        .filter(|(_, k)| *k == kind)
        .map(|(site, _)| site)
        .collect();
    if sites.is_empty() {
        return None;
    }
    mutate_site(
        &original.choices,
        sites[selector as usize % sites.len()],
        config,
    )
    .filter(|m| m.program.program != original.program)
}
