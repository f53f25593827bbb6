//! The hook through which another device runs some of a program's top-level
//! SOAC statements (the GPU driver in `gpu::driver` implements it;
//! `optimized` never depends on `gpu`).
//!
//! A *top-level* SOAC statement is one of a function's host code: its body
//! and, inside it, the branches of `if`s and the bodies of loops, never a
//! lambda's body (whose SOACs run once per element of the enclosing one).
//! [`host_soac_statements`] lists them, numbered as [`SoacCall::statement`]
//! numbers them. When a [`super::CompiledProgram`] is built with an offload
//! ([`super::CompiledProgram::with_offload`]), the compiler asks it once per
//! top-level SOAC statement whether it claims the statement
//! ([`SoacOffload::claims`]). A claimed statement is compiled
//! twice: the host version as usual, and a step that evaluates the width and
//! the input arrays and hands them to [`SoacOffload::run`]; when that answers
//! `Ok(None)` the host version runs instead. Statements not claimed, and
//! every statement of a program built without an offload, compile exactly as
//! before: the hook costs nothing off the claimed statements.

use super::value::Val;
use super::RuntimeError;
use crate::ir::{Body, Exp, Function, LoopForm, Soac, Span, Statement, SubExp, Type, VName};

/// One execution of a claimed SOAC statement.
#[derive(Debug)]
pub struct SoacCall<'a> {
    /// The function's index in `Program::functions`.
    pub function: usize,
    /// The statement's index in the function's [`host_soac_statements`].
    pub statement: usize,
    /// The SOAC's width, evaluated (never negative: a negative width is the
    /// host's error).
    pub width: usize,
    /// The SOAC's input arrays, evaluated, in the order of its `arrays`
    /// (for `scatter` and `reduce_by_index`: the destinations, the indices,
    /// then the values).
    pub inputs: &'a [Val],
    /// The other variables of the function's scope the statement reads
    /// (its width, neutral elements and the free variables of its
    /// lambdas), and their values, in the same order.
    pub free_names: &'a [VName],
    pub free_values: &'a [Val],
    /// The statement's span (for errors).
    pub span: Span,
}

/// Runs some top-level SOAC statements elsewhere than on the CPU.
pub trait SoacOffload: Send + Sync {
    /// Whether statement `statement` of function `function` (indices into
    /// `Program::functions` and the function's body) should be offered to
    /// [`Self::run`]. Asked once, when the program is compiled.
    fn claims(&self, function: usize, statement: usize) -> bool;

    /// Runs a claimed statement: `Ok(Some(values))` are the values its
    /// pattern binds, in order (what the CPU backend would bind: for
    /// `filter`, the count first); `Ok(None)` hands it back to the host
    /// (e.g. inputs the device cannot take); `Err` is a run-time error of the
    /// program.
    fn run(&self, call: &SoacCall<'_>) -> Result<Option<Vec<Val>>, RuntimeError>;
}

/// A top-level SOAC statement of a function, with the variables in scope
/// where it stands (the function's parameters, the enclosing loops'
/// parameters and indices, and every variable bound before it in the
/// enclosing bodies), in binding order, with their types.
#[derive(Debug)]
pub struct HostSoacStatement<'a> {
    pub statement: &'a Statement,
    pub soac: &'a Soac,
    pub in_scope: Vec<(VName, Type)>,
}

/// The top-level SOAC statements of `function` (the module header says
/// which), in program order: a statement before the ones after it, an `if`'s
/// then-branch before its else-branch, a loop's body where the loop stands.
/// Their positions in this list are the statement indices of
/// [`SoacOffload::claims`] and [`SoacCall::statement`].
pub fn host_soac_statements(function: &Function) -> Vec<HostSoacStatement<'_>> {
    let mut scope: Vec<(VName, Type)> = function
        .params
        .iter()
        .map(|param| (param.name.clone(), param.ty.clone()))
        .collect();
    let mut found = Vec::new();
    collect_host_soacs(&function.body, &mut scope, &mut found);
    found
}

fn collect_host_soacs<'a>(
    body: &'a Body,
    scope: &mut Vec<(VName, Type)>,
    found: &mut Vec<HostSoacStatement<'a>>,
) {
    let outer = scope.len();
    for statement in &body.statements {
        match &statement.expression {
            Exp::Soac(soac) => found.push(HostSoacStatement {
                statement,
                soac,
                in_scope: scope.clone(),
            }),
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                collect_host_soacs(then_body, scope, found);
                collect_host_soacs(else_body, scope, found);
            }
            Exp::Loop { params, form, body } => {
                let before_loop = scope.len();
                scope.extend(params.iter().map(|(p, _)| (p.name.clone(), p.ty.clone())));
                if let LoopForm::For { index, bound } = form {
                    let index_type = match bound {
                        SubExp::Constant(value) => Some(Type::Prim(value.prim_type())),
                        SubExp::Var(name) => scope
                            .iter()
                            .rev()
                            .find(|(bound_name, _)| bound_name == name)
                            .map(|(_, ty)| ty.clone()),
                    };
                    // A bound not in scope is the IR checker's error; the
                    // index is then left out, so no plan reads it.
                    if let Some(index_type) = index_type {
                        scope.push((index.clone(), index_type));
                    }
                }
                collect_host_soacs(body, scope, found);
                scope.truncate(before_loop);
            }
            _ => {}
        }
        scope.extend(
            statement
                .pattern
                .iter()
                .map(|element| (element.name.clone(), element.ty.clone())),
        );
    }
    scope.truncate(outer);
}
