//! Flattening: the fused SOAC IR to the segmented IR
//! ([`crate::ir::segmented`]), after moderate flattening (Henriksen et al.,
//! PLDI'17 §5) — its first step, perfect-nest extraction.
//!
//! The pass walks the *host* code of every function (function bodies and
//! the branches and loop bodies inside them; never SOAC lambdas) and turns
//! each parallel SOAC statement there into a segmented operation:
//!
//! - **F-Map**: `map f xs₁ … xsₘ` of width `n` is a `segmap` over `[n]`
//!   whose body binds the lambda's parameters to the rows `xsⱼ[gtid]` and
//!   then runs the lambda's body.
//! - **F-Nest** (perfect-nest extraction): while the body of a `segmap`
//!   is a prefix that F-Assert, F-Reshape, F-Iota and F-Sink take out and one inner SOAC
//!   statement whose results are the body's results, and the inner SOAC's
//!   width, operator, neutral elements and result types do not depend on
//!   the outer indices or rows, the inner SOAC's dimension joins the index
//!   space: an inner `map` keeps the `segmap`; an inner `reduce` or
//!   `redomap` makes it a `segred`, an inner `scan` or `scanomap` a
//!   `segscan`, both segmented along the new innermost dimension. Rows of
//!   rows are indexed from the outermost array (`xss[gtid₁, gtid₂]`), so no
//!   point copies a row.
//! - **F-Carry**: an outer row that is itself an array, used by the inner
//!   SOAC's body, is carried into the next level, where it may become an
//!   inner SOAC's array, indexed from the outermost array (matrix
//!   multiplication's row of `a`: a 3-D `segred`); a nest that would finish
//!   with a carried row still used is undone back to the level that carried
//!   it (`Nest::deepen`).
//! - **F-Red**, **F-Scan**: a host `reduce`/`redomap` (`scan`/`scanomap`)
//!   with no mapped results is a `segred` (`segscan`) over `[n]`.
//! - **F-Assert**, **F-Reshape**: an assertion on values from outside the
//!   nest, and the rank-one reshape of a row that `zip` leaves, in the
//!   prefix of a level's body: their checks are hoisted before the
//!   operation, guarded by the nest's sizes (`Nest::take_prefix`), so they
//!   fail exactly when, and where, they did in the nest.
//! - **F-Iota**, **F-Sink**: an `iota` of values from outside the nest that
//!   only the inner SOAC reads (`map f (iota n)` in a map) becomes a row
//!   computed from the inner index, its check hoisted as F-Assert's; scalar
//!   statements that cannot fail move into the inner level's body, which
//!   recomputes them per point (what a map over a grid's indices, such as
//!   mandelbrot's, leaves between its two maps).
//! - **F-Constant**: an array literal of constants in a segmented body (at
//!   any depth of its branches and loops) that the body only indexes is
//!   built once, before the operation (`take_constant_arrays`).
//! - **F-Distribute** (map distribution, [`distribute`]): a host `map`
//!   whose body goes on after its first SOAC, reading only scalars of the
//!   part up to it, is first split into a map of that part and a map of the
//!   rest over its scalars, each flattened in turn (a row's sum and a map
//!   over the row that reads it: a `segred` and a `segmap`), where the two
//!   parts cannot both fail.
//!
//! Everything else — `filter`, `scatter`, `reduce_by_index`, a `redomap` or
//! `scanomap` that also maps, and every SOAC inside a body that is not a
//! perfect nest and does not distribute (an inner SOAC's array result read by
//! the rest, two parts that may both fail) — stays as it is: host SOACs, or
//! sequential code of a segmented body. Loop interchange and the thesis'
//! vectorisation of irregular nests (`reference/src/nested`) are not done
//! yet.
//!
//! The output is checked like every IR (the segmented operations by
//! [`crate::ir::check`]); the CPU backend runs it by expanding each
//! segmented operation over its whole index space (`crate::cpu::segmented`).

mod distribute;

use std::collections::HashSet;

use crate::ir::message::NUMBER;
use crate::ir::visit::{for_each_use_in_body, for_each_use_in_exp};
use crate::ir::{
    BinOp, Body, CmpOp, Exp, Lambda, LoopForm, NameSource, Param, PrimType, Program, SegDim, SegOp,
    SegSpace, Soac, Span, Statement, SubExp, Type, VName,
};

/// `program` with the parallel SOACs of its host code as segmented
/// operations (see the module documentation).
pub fn flatten_program(program: &Program) -> Program {
    let mut names = NameSource::fresh_for(program);
    let mut flattened = program.clone();
    for function in &mut flattened.functions {
        flatten_host_body(&mut function.body, &mut names);
    }
    flattened
}

/// Counts the segmented operations of a program, by kind, at any depth,
/// and the SOACs its host code still has.
pub fn count_segmented_operations(program: &Program) -> SegmentedCounts {
    let mut counts = SegmentedCounts::default();
    for function in &program.functions {
        count_in_body(&function.body, true, &mut counts);
    }
    counts
}

/// How many `segmap`, `segred` and `segscan` operations a program has, the
/// largest rank of an index space, and how many SOAC statements are left
/// in host code (outside every segmented body).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentedCounts {
    pub maps: usize,
    pub reductions: usize,
    pub scans: usize,
    pub deepest_space: usize,
    pub host_soacs: usize,
}

fn count_in_body(body: &Body, host: bool, counts: &mut SegmentedCounts) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::Seg(op) => {
                match op {
                    SegOp::Map { .. } => counts.maps += 1,
                    SegOp::Red { .. } => counts.reductions += 1,
                    SegOp::Scan { .. } => counts.scans += 1,
                }
                counts.deepest_space = counts.deepest_space.max(op.space().dims.len());
                count_in_body(op.body(), false, counts);
            }
            Exp::Soac(_) if host => counts.host_soacs += 1,
            exp => {
                for inner in exp.bodies() {
                    count_in_body(inner, host, counts);
                }
            }
        }
    }
}

/// Host code: the statements of a function body, and of the branches and
/// loop bodies in host code. A segmented operation's hoisted assertions
/// (F-Assert) go right before it.
fn flatten_host_body(body: &mut Body, names: &mut NameSource) {
    let statements = std::mem::take(&mut body.statements);
    for mut statement in statements {
        // F-Distribute first: each of its two maps is flattened in turn.
        if let Some(parts) = distribute::distribute(&statement, names) {
            let mut distributed = Body {
                statements: parts.into(),
                result: Vec::new(),
            };
            flatten_host_body(&mut distributed, names);
            body.statements.extend(distributed.statements);
            continue;
        }
        match &mut statement.expression {
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                flatten_host_body(then_body, names);
                flatten_host_body(else_body, names);
            }
            Exp::Loop { body, .. } => flatten_host_body(body, names),
            Exp::Soac(soac) => {
                if let Some((hoisted, mut op)) = segment(soac, names) {
                    body.statements.extend(hoisted);
                    body.statements.extend(take_constant_arrays(op.body_mut()));
                    statement.expression = Exp::Seg(op);
                }
            }
            _ => {}
        }
        body.statements.push(statement);
    }
}

/// F-Constant: the array literals of constants in a segmented operation's
/// body, at any depth of its branches and loops, that the body only ever
/// indexes, taken out of it to run once before the operation. Such a
/// literal cannot fail and is the same at every point; each point built
/// its own copy (a kernel cannot build one at all). One that is updated,
/// passed on or returned stays, since each point may need its own.
fn take_constant_arrays(segmented_body: &mut Body) -> Vec<Statement> {
    let mut constant = HashSet::new();
    collect_constant_arrays(segmented_body, &mut constant);
    let mut read_otherwise = HashSet::new();
    collect_non_index_uses(segmented_body, &mut read_otherwise);
    constant.retain(|name| !read_otherwise.contains(name));
    let mut taken = Vec::new();
    if !constant.is_empty() {
        take_statements_binding(segmented_body, &constant, &mut taken);
    }
    taken
}

/// The names bound to array literals of primitive constants in `body`, at
/// any depth of its branches and loops.
fn collect_constant_arrays(body: &Body, found: &mut HashSet<VName>) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::ArrayLiteral { elements, row_type }
                if matches!(row_type, Type::Prim(_))
                    && elements.iter().all(|e| matches!(e, SubExp::Constant(_))) =>
            {
                found.extend(statement.pattern.iter().map(|p| p.name.clone()));
            }
            Exp::If { .. } | Exp::Loop { .. } => {
                for inner in statement.expression.bodies() {
                    collect_constant_arrays(inner, found);
                }
            }
            _ => {}
        }
    }
}

/// The names `body` uses other than as the array of an `Index`, at any
/// depth (its results included).
fn collect_non_index_uses(body: &Body, found: &mut HashSet<VName>) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::Index { indices, .. } => {
                for index in indices {
                    found.extend(index.as_var().cloned());
                }
            }
            Exp::If {
                condition,
                then_body,
                else_body,
                ..
            } => {
                found.extend(condition.as_var().cloned());
                collect_non_index_uses(then_body, found);
                collect_non_index_uses(else_body, found);
            }
            Exp::Loop { params, form, body } => {
                found.extend(params.iter().filter_map(|(_, init)| init.as_var().cloned()));
                if let LoopForm::For { bound, .. } = form {
                    found.extend(bound.as_var().cloned());
                }
                collect_non_index_uses(body, found);
            }
            other => for_each_use_in_exp(other, |name| {
                found.insert(name.clone());
            }),
        }
    }
    found.extend(body.result.iter().filter_map(|r| r.as_var().cloned()));
}

/// Moves the statements binding `names` out of `body` (at any depth of its
/// branches and loops) into `taken`, in program order.
fn take_statements_binding(body: &mut Body, names: &HashSet<VName>, taken: &mut Vec<Statement>) {
    let statements = std::mem::take(&mut body.statements);
    for mut statement in statements {
        if statement.pattern.iter().any(|p| names.contains(&p.name)) {
            taken.push(statement);
            continue;
        }
        match &mut statement.expression {
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                take_statements_binding(then_body, names, taken);
                take_statements_binding(else_body, names, taken);
            }
            Exp::Loop { body, .. } => take_statements_binding(body, names, taken),
            _ => {}
        }
        body.statements.push(statement);
    }
}

/// A row of the nest: `name = array[indices]`, in bounds by construction
/// (`array` is bound outside the nest and each index runs below the
/// dimension it indexes), or an element of an `iota` (F-Iota), computed
/// from its index. An *alias* row is a rank-one row reshaped to a size its
/// hoisted check (F-Reshape) proves equal: it is only ever indexed further,
/// never bound. A *carried* row is an outer level's array row that a deeper
/// level's body still uses (F-Carry): the nest may only finish where no
/// body uses it any more.
#[derive(Clone, Debug)]
struct Row {
    param: Param,
    source: RowSource,
    alias: bool,
    carried: bool,
}

/// Where a row's value comes from.
#[derive(Clone, Debug)]
enum RowSource {
    /// `array[indices]`.
    Element { array: VName, indices: Vec<SubExp> },
    /// Element `index` of `iota(n, start, step)` of `element`s: `start +
    /// step · index`, wrapping as the elements of the array do.
    Iota {
        start: SubExp,
        step: SubExp,
        element: PrimType,
        index: SubExp,
    },
}

impl Row {
    fn statements(&self, names: &mut NameSource, span: Span) -> Vec<Statement> {
        let bind = |name: &VName, ty: Type, expression| Statement {
            pattern: vec![Param {
                name: name.clone(),
                ty,
            }],
            expression,
            span,
        };
        match &self.source {
            RowSource::Element { array, indices } => vec![Statement {
                pattern: vec![self.param.clone()],
                expression: Exp::Index {
                    array: array.clone(),
                    indices: indices.clone(),
                },
                span,
            }],
            RowSource::Iota {
                start,
                step,
                element,
                index,
            } => {
                let element_type = Type::Prim(*element);
                let mut statements = Vec::new();
                let position = if *element == PrimType::I64 {
                    index.clone()
                } else {
                    let converted = names.fresh("iota_index");
                    statements.push(bind(
                        &converted,
                        element_type.clone(),
                        Exp::ConvOp {
                            op: crate::ir::ConvOp {
                                from: PrimType::I64,
                                to: *element,
                            },
                            operand: index.clone(),
                        },
                    ));
                    SubExp::Var(converted)
                };
                let offset = names.fresh("iota_offset");
                statements.push(bind(
                    &offset,
                    element_type.clone(),
                    Exp::BinOp {
                        op: BinOp::Mul,
                        ty: *element,
                        left: step.clone(),
                        right: position,
                    },
                ));
                statements.push(Statement {
                    pattern: vec![self.param.clone()],
                    expression: Exp::BinOp {
                        op: BinOp::Add,
                        ty: *element,
                        left: start.clone(),
                        right: SubExp::Var(offset),
                    },
                    span,
                });
                statements
            }
        }
    }
}

/// What one level of a nest combines its points with.
#[derive(Clone)]
enum LevelKind {
    /// A `map`: one value per point, of these types.
    Map { return_types: Vec<Type> },
    /// A `reduce`/`redomap` (`scan: false`) or `scan`/`scanomap`.
    Combine {
        scan: bool,
        operator: Lambda,
        neutral: Vec<SubExp>,
    },
}

/// A SOAC seen as one level of a nest: its width, the rows it binds from
/// its arrays, and the body that runs at each of its points.
struct Level {
    width: SubExp,
    params: Vec<Param>,
    arrays: Vec<VName>,
    body: Body,
    kind: LevelKind,
}

/// The level a SOAC is, for the SOACs flattening handles: `map`, and
/// `reduce`, `scan`, `redomap` and `scanomap` with no mapped results.
fn level_of(soac: &Soac, names: &mut NameSource) -> Option<Level> {
    match soac {
        Soac::Map {
            width,
            lambda,
            arrays,
        } => Some(Level {
            width: width.clone(),
            params: lambda.params.clone(),
            arrays: arrays.clone(),
            body: lambda.body.clone(),
            kind: LevelKind::Map {
                return_types: lambda.return_types.clone(),
            },
        }),
        Soac::Reduce {
            width,
            lambda,
            neutral,
            arrays,
        }
        | Soac::Scan {
            width,
            lambda,
            neutral,
            arrays,
        } => {
            // The body returns the rows themselves.
            let params: Vec<Param> = lambda
                .return_types
                .iter()
                .map(|ty| Param {
                    name: names.fresh("row"),
                    ty: ty.clone(),
                })
                .collect();
            let result = params.iter().map(|p| SubExp::Var(p.name.clone())).collect();
            Some(Level {
                width: width.clone(),
                params,
                arrays: arrays.clone(),
                body: Body {
                    statements: Vec::new(),
                    result,
                },
                kind: LevelKind::Combine {
                    scan: matches!(soac, Soac::Scan { .. }),
                    operator: lambda.clone(),
                    neutral: neutral.clone(),
                },
            })
        }
        Soac::Redomap {
            width,
            map_lambda,
            reduce_lambda: operator,
            neutral,
            arrays,
        }
        | Soac::Scanomap {
            width,
            map_lambda,
            scan_lambda: operator,
            neutral,
            arrays,
        } if map_lambda.return_types.len() == neutral.len() => Some(Level {
            width: width.clone(),
            params: map_lambda.params.clone(),
            arrays: arrays.clone(),
            body: map_lambda.body.clone(),
            kind: LevelKind::Combine {
                scan: matches!(soac, Soac::Scanomap { .. }),
                operator: operator.clone(),
                neutral: neutral.clone(),
            },
        }),
        _ => None,
    }
}

/// A perfect nest being extracted: its dimensions, the rows its innermost
/// level sees, that level's body and result types, and the assertions
/// hoisted out of it (F-Assert, F-Reshape) in the order they would first
/// run.
#[derive(Clone)]
struct Nest {
    dims: Vec<SegDim>,
    rows: Vec<Row>,
    body: Body,
    return_types: Vec<Type>,
    hoisted: Vec<Statement>,
    span: Span,
}

/// The segmented operation of a host SOAC, where one applies, and the
/// assertions to run before it (F-Map, F-Red, F-Scan, then F-Nest).
fn segment(soac: &Soac, names: &mut NameSource) -> Option<(Vec<Statement>, SegOp)> {
    let level = level_of(soac, names)?;
    let nest = Nest {
        dims: Vec::new(),
        rows: Vec::new(),
        body: Body::default(),
        return_types: Vec::new(),
        hoisted: Vec::new(),
        span: Span::default(),
    };
    // No row is carried into the first level, so nothing undoes it.
    nest.enter(level, &[], names).ok()
}

/// A prefix of a level's body that flattening can take out of it: the
/// assertions to hoist, the rows its reshapes alias, the iotas whose
/// elements the next level computes, and the statements it sinks into the
/// next level's body.
struct Prefix {
    hoisted: Vec<Statement>,
    aliases: Vec<Row>,
    iotas: Vec<IotaArray>,
    sunk: Vec<Statement>,
}

/// `name = iota(n, start, step)` of `element`s, taken out of a nest
/// (F-Iota).
struct IotaArray {
    name: VName,
    start: SubExp,
    step: SubExp,
    element: PrimType,
}

/// `name = (left op right)` on i64.
fn comparison(name: &VName, op: CmpOp, left: &SubExp, right: &SubExp, span: Span) -> Statement {
    Statement {
        pattern: vec![Param {
            name: name.clone(),
            ty: Type::Prim(PrimType::Bool),
        }],
        expression: Exp::CmpOp {
            op,
            ty: PrimType::I64,
            left: left.clone(),
            right: right.clone(),
        },
        span,
    }
}

/// A nest finished where a carried row (F-Carry) is still used: the level
/// that carried it is undone.
struct Undone;

/// A finished nest: its hoisted statements and segmented operation, or
/// undone.
type Finished = Result<(Vec<Statement>, SegOp), Undone>;

impl Nest {
    /// Enters `level`: a new dimension, the level's rows; then F-Nest
    /// (a map) or the segmented reduction or scan (a combining level).
    fn enter(mut self, level: Level, iotas: &[IotaArray], names: &mut NameSource) -> Finished {
        let index = names.fresh("gtid");
        self.dims.push(SegDim {
            index: index.clone(),
            size: level.width.clone(),
        });
        let new_rows = self.rows_of(&level.params, &level.arrays, &SubExp::Var(index), iotas);
        self.rows = self.kept_rows(&level.body, new_rows);
        self.body = level.body;
        match level.kind {
            LevelKind::Map { return_types } => {
                self.return_types = return_types;
                self.deepen(names)
            }
            LevelKind::Combine {
                scan,
                operator,
                neutral,
            } => {
                self.finishes()?;
                let space = SegSpace { dims: self.dims };
                let body = with_rows(&self.rows, self.body, self.span, names);
                let op = if scan {
                    SegOp::Scan {
                        space,
                        body,
                        operator,
                        neutral,
                    }
                } else {
                    SegOp::Red {
                        space,
                        body,
                        operator,
                        neutral,
                    }
                };
                Ok((self.hoisted, op))
            }
        }
    }

    /// The nest may finish here: its body uses no carried row (F-Carry).
    fn finishes(&self) -> Result<(), Undone> {
        match self.rows.iter().any(|row| row.carried) {
            true => Err(Undone),
            false => Ok(()),
        }
    }

    /// F-Nest: while the body is a prefix F-Assert, F-Reshape, F-Iota and
    /// F-Sink take out and one inner SOAC returning the body's results,
    /// whose width, operator, neutral elements and result types depend on
    /// no point and whose body uses no alias row, that SOAC is the next
    /// level. Otherwise the nest is a `segmap` of what it has.
    ///
    /// **F-Carry**: where the inner SOAC's body uses an outer row that is
    /// an array (matrix multiplication's `row` in `map (\col -> reduce
    /// (+) 0 (map2 (*) row col))`), the row is carried into the next level,
    /// to become, one level deeper, an inner SOAC's array, indexed from the
    /// outermost array (`a[gtid₁, gtid₃]`). A nest that finishes with a
    /// carried row still used would have each point copy it: it is undone
    /// back to the level that carried the row, which finishes as a
    /// `segmap` of what it had.
    fn deepen(mut self, names: &mut NameSource) -> Finished {
        let Some((prefix, inner, span)) = self.split_body() else {
            return self.into_segmap(names);
        };
        let Some(mut level) = level_of(&inner, names) else {
            return self.into_segmap(names);
        };
        let Some(prefix) = self.take_prefix(&prefix, names) else {
            return self.into_segmap(names);
        };
        let before = self.clone();
        self.rows.extend(prefix.aliases);
        let mut bound = self.bound();
        bound.extend(
            prefix
                .sunk
                .iter()
                .flat_map(|s| s.pattern.iter().map(|p| p.name.clone())),
        );
        let (operator, neutral, types) = match &level.kind {
            LevelKind::Map { return_types } => (None, &[][..], &return_types[..]),
            LevelKind::Combine {
                operator, neutral, ..
            } => (Some(operator), &neutral[..], &[][..]),
        };
        let operands: Vec<SubExp> = std::iter::once(level.width.clone())
            .chain(neutral.iter().cloned())
            .collect();
        let sunk = prefix.sunk;
        level.body.statements.splice(0..0, sunk);
        // An iota's array is only the inner SOAC's: its elements are
        // computed where they are used (F-Iota).
        let mut iota_used_otherwise = false;
        for_each_use_in_body(&level.body, |name| {
            iota_used_otherwise |= prefix.iotas.iter().any(|iota| &iota.name == name)
        });
        if !independent(&bound, &operands, operator, types)
            || self.uses_rows(&level.body, |row| row.alias)
            || iota_used_otherwise
        {
            return before.into_segmap(names);
        }
        let carries = self.uses_rows(&level.body, |row| row.param.ty.rank() > 0);
        self.hoisted.extend(prefix.hoisted);
        self.span = span;
        match self.enter(level, &prefix.iotas, names) {
            Err(Undone) if carries => before.into_segmap(names),
            finished => finished,
        }
    }

    /// The body as a prefix and one last SOAC statement that returns the
    /// body's results in order.
    fn split_body(&self) -> Option<(Vec<Statement>, Soac, Span)> {
        let (last, prefix) = self.body.statements.split_last()?;
        let Exp::Soac(soac) = &last.expression else {
            return None;
        };
        let returns_its_results = last.pattern.len() == self.body.result.len()
            && last
                .pattern
                .iter()
                .zip(&self.body.result)
                .all(|(p, r)| r.as_var() == Some(&p.name));
        returns_its_results.then(|| (prefix.to_vec(), soac.clone(), last.span))
    }

    /// The prefix of a level's body that runs once per point of the nest
    /// so far, taken out of the body, when each of its statements is
    ///
    /// - **F-Assert**: an assertion on values from outside the nest. It is
    ///   hoisted before the segmented operation as `assert (n₁ = 0 ∨ … ∨
    ///   nₖ = 0 ∨ c)`: it runs there exactly when it ran in the nest (at
    ///   least one point), with the same message and location, and before
    ///   every point's work, as it did in the nest.
    /// - **F-Reshape**: `r = reshape([m], x)` of a rank-one row `x : [m']`
    ///   with `m` from outside the nest (what `zip` of rows leaves): `r` is
    ///   `x` under another name (an alias row), and the reshape's own check
    ///   `m = m'` is hoisted as F-Assert hoists an assertion, with the
    ///   reshape's message.
    /// - **F-Iota**: `r = iota(n, start, step)` with its operands from
    ///   outside the nest, which only the inner SOAC reads (checked by
    ///   [`Self::deepen`]): the inner level's row of `r` is `start + step ·
    ///   index`, computed, and iota's check `n ≥ 0` is hoisted as F-Assert
    ///   hoists an assertion, with iota's message. (What `map f (iota n)`
    ///   leaves inside a map.)
    /// - **F-Sink**: a statement of scalars that cannot fail and has no
    ///   body (arithmetic on the point's indices and scalar rows): it moves
    ///   into the inner level's body, where each inner point computes it
    ///   again — the same value, and no error either way.
    ///
    /// A statement of the first three kinds may not use what F-Sink sinks.
    fn take_prefix(&self, prefix: &[Statement], names: &mut NameSource) -> Option<Prefix> {
        let mut bound = self.bound();
        let mut taken = Prefix {
            hoisted: Vec::new(),
            aliases: Vec::new(),
            iotas: Vec::new(),
            sunk: Vec::new(),
        };
        for statement in prefix {
            let uses_bound = |s: &SubExp| s.as_var().is_some_and(|v| bound.contains(v));
            match &statement.expression {
                Exp::Assert {
                    condition,
                    message,
                    operands,
                    span,
                } if !uses_bound(condition) && !operands.iter().any(uses_bound) => {
                    let check = self.guarded_assertion(condition, message, operands, *span, names);
                    taken.hoisted.extend(check);
                }
                Exp::Reshape { shape, array } => {
                    let [size] = shape.as_slice() else {
                        return None;
                    };
                    let row = self.rows.iter().find(|r| &r.param.name == array)?;
                    let [old_size] = row.param.ty.shape() else {
                        return None;
                    };
                    let [target] = statement.pattern.as_slice() else {
                        return None;
                    };
                    if uses_bound(size) || uses_bound(old_size) {
                        return None;
                    }
                    let equal = names.fresh("reshape_ok");
                    taken.hoisted.push(comparison(
                        &equal,
                        CmpOp::Eq,
                        size,
                        old_size,
                        statement.span,
                    ));
                    let message = format!(
                        "Cannot reshape array of shape [{NUMBER}] to array of shape [{NUMBER}]."
                    );
                    let operands = [old_size.clone(), size.clone()];
                    let check = self.guarded_assertion(
                        &SubExp::Var(equal),
                        &message,
                        &operands,
                        statement.span,
                        names,
                    );
                    taken.hoisted.extend(check);
                    taken.aliases.push(Row {
                        param: target.clone(),
                        source: row.source.clone(),
                        alias: true,
                        carried: false,
                    });
                }
                Exp::Iota {
                    length,
                    start,
                    step,
                    element,
                } => {
                    let [target] = statement.pattern.as_slice() else {
                        return None;
                    };
                    if [length, start, step].into_iter().any(uses_bound) {
                        return None;
                    }
                    let non_negative = names.fresh("iota_ok");
                    taken.hoisted.push(comparison(
                        &non_negative,
                        CmpOp::Ge,
                        length,
                        &SubExp::i64(0),
                        statement.span,
                    ));
                    let message = format!("Range 0..1..<{NUMBER} is invalid.");
                    let check = self.guarded_assertion(
                        &SubExp::Var(non_negative),
                        &message,
                        std::slice::from_ref(length),
                        statement.span,
                        names,
                    );
                    taken.hoisted.extend(check);
                    taken.iotas.push(IotaArray {
                        name: target.name.clone(),
                        start: start.clone(),
                        step: step.clone(),
                        element: *element,
                    });
                }
                expression
                    if expression.bodies().is_empty()
                        && !crate::ir::effects::can_fail(expression)
                        && statement
                            .pattern
                            .iter()
                            .all(|p| matches!(p.ty, Type::Prim(_))) =>
                {
                    bound.extend(statement.pattern.iter().map(|p| p.name.clone()));
                    taken.sunk.push(statement.clone());
                }
                _ => return None,
            }
        }
        Some(taken)
    }

    /// `assert (n₁ = 0 ∨ … ∨ nₖ = 0 ∨ condition)` over the nest's sizes so
    /// far: the assertion holds vacuously where the nest has no point.
    fn guarded_assertion(
        &self,
        condition: &SubExp,
        message: &str,
        operands: &[SubExp],
        span: Span,
        names: &mut NameSource,
    ) -> Vec<Statement> {
        let boolean = |name: &VName| Param {
            name: name.clone(),
            ty: Type::Prim(PrimType::Bool),
        };
        let mut statements = Vec::new();
        let mut guard = condition.clone();
        for dim in &self.dims {
            let empty = names.fresh("empty");
            statements.push(Statement {
                pattern: vec![boolean(&empty)],
                expression: Exp::CmpOp {
                    op: CmpOp::Eq,
                    ty: PrimType::I64,
                    left: dim.size.clone(),
                    right: SubExp::i64(0),
                },
                span,
            });
            let either = names.fresh("guard");
            statements.push(Statement {
                pattern: vec![boolean(&either)],
                expression: Exp::BinOp {
                    op: BinOp::LogOr,
                    ty: PrimType::Bool,
                    left: SubExp::Var(empty),
                    right: guard,
                },
                span,
            });
            guard = SubExp::Var(either);
        }
        statements.push(Statement {
            pattern: Vec::new(),
            expression: Exp::Assert {
                condition: guard,
                message: message.to_string(),
                operands: operands.to_vec(),
                span,
            },
            span,
        });
        statements
    }

    /// The rows `params[j] = arrays[j][index]`; an array that is itself a
    /// row of the nest is indexed from its outermost array instead, and an
    /// element of one of `iotas` is computed (F-Iota).
    fn rows_of(
        &self,
        params: &[Param],
        arrays: &[VName],
        index: &SubExp,
        iotas: &[IotaArray],
    ) -> Vec<Row> {
        params
            .iter()
            .zip(arrays)
            .map(|(param, array)| {
                if let Some(iota) = iotas.iter().find(|iota| &iota.name == array) {
                    return Row {
                        param: param.clone(),
                        source: RowSource::Iota {
                            start: iota.start.clone(),
                            step: iota.step.clone(),
                            element: iota.element,
                            index: index.clone(),
                        },
                        alias: false,
                        carried: false,
                    };
                }
                let outer = self.rows.iter().find(|r| &r.param.name == array);
                let (array, mut indices) = match outer.map(|r| &r.source) {
                    Some(RowSource::Element { array, indices }) => (array.clone(), indices.clone()),
                    _ => (array.clone(), Vec::new()),
                };
                indices.push(index.clone());
                Row {
                    param: param.clone(),
                    source: RowSource::Element { array, indices },
                    alias: false,
                    carried: false,
                }
            })
            .collect()
    }

    /// The names the nest binds: its indices and rows.
    fn bound(&self) -> HashSet<VName> {
        self.dims
            .iter()
            .map(|d| d.index.clone())
            .chain(self.rows.iter().map(|r| r.param.name.clone()))
            .collect()
    }

    /// Whether `body` uses a row of the nest that `which` selects.
    fn uses_rows(&self, body: &Body, which: impl Fn(&Row) -> bool) -> bool {
        let selected: HashSet<&VName> = self
            .rows
            .iter()
            .filter(|row| which(row))
            .map(|row| &row.param.name)
            .collect();
        let mut uses = false;
        for_each_use_in_body(body, |name| uses |= selected.contains(name));
        uses
    }

    /// The rows the next level keeps: the outer rows `body` still uses
    /// (never an alias, by [`Self::deepen`]; those that are arrays carried,
    /// F-Carry) and the new ones.
    fn kept_rows(&self, body: &Body, new_rows: Vec<Row>) -> Vec<Row> {
        let mut used = HashSet::new();
        for_each_use_in_body(body, |name| {
            used.insert(name.clone());
        });
        self.rows
            .iter()
            .filter(|r| !r.alias && used.contains(&r.param.name))
            .map(|r| Row {
                carried: r.carried || r.param.ty.rank() > 0,
                ..r.clone()
            })
            .chain(new_rows)
            .collect()
    }

    fn into_segmap(self, names: &mut NameSource) -> Finished {
        self.finishes()?;
        let op = SegOp::Map {
            space: SegSpace { dims: self.dims },
            body: with_rows(&self.rows, self.body, self.span, names),
            return_types: self.return_types,
        };
        Ok((self.hoisted, op))
    }
}

/// `body` after the statements that bind `rows` (alias rows are never
/// bound: nothing uses them but the levels that index through them).
fn with_rows(rows: &[Row], body: Body, span: Span, names: &mut NameSource) -> Body {
    let mut statements: Vec<Statement> = rows
        .iter()
        .filter(|r| !r.alias)
        .flat_map(|r| r.statements(names, span))
        .collect();
    statements.extend(body.statements);
    Body {
        statements,
        result: body.result,
    }
}

/// Whether `operands`, `operator` (its parameter, body and result types)
/// and `types` use no name of `bound`: what a segmented operation takes
/// from outside its space (sizes, neutral elements, operator, result
/// types) may not depend on a point.
fn independent(
    bound: &HashSet<VName>,
    operands: &[SubExp],
    operator: Option<&Lambda>,
    types: &[Type],
) -> bool {
    let operator_types = operator
        .into_iter()
        .flat_map(|l| l.params.iter().map(|p| &p.ty).chain(&l.return_types));
    let mut depends = operands
        .iter()
        .chain(types.iter().chain(operator_types).flat_map(|t| t.shape()))
        .any(|s| s.as_var().is_some_and(|v| bound.contains(v)));
    if let Some(operator) = operator {
        for_each_use_in_body(&operator.body, |name| depends |= bound.contains(name));
    }
    !depends
}
