//! Lowering (issue 5, item 3): the first-order core (after
//! defunctionalisation) to the SOAC IR ([`crate::ir`]).
//!
//! Representation decisions:
//!
//! * **Flattening.** A core value is a list of IR values, the *leaves* of its
//!   type ([`leaves`]): a primitive is one value; a record (tuples included)
//!   the concatenation of its fields' lists in field order; a sum type a `u8`
//!   tag (the constructor's index in name order) followed by the lists of
//!   every constructor's payload (inactive payloads are zeros, arrays of them
//!   empty); an array of `t` is `t`'s list with the array's dimension added
//!   in front of every leaf (structure of arrays).
//! * **Sizes.** Every array value carries its shape as IR `i64` values. A
//!   function takes one `i64` parameter per dimension of each array
//!   parameter (all of them first, then the values) and returns every
//!   dimension of its array results as existential sizes; `if`, `match` and
//!   `loop` results are existential too. The core's size parameters are bound
//!   from the first dimension that names them; every later named or constant
//!   dimension is checked by an `Assert` (`Size mismatch`, with the span).
//!   Where an operation needs two sizes equal (the arrays of `map2`/`zip`,
//!   array literal rows, operator results, loop results), sizes that differ
//!   symbolically are checked at run time and the array is `Reshape`d.
//! * **Checks.** Indexing and slicing are bounds-checked by the IR; ranges,
//!   `iota`/`replicate` of negative sizes, `unflatten` and size coercions
//!   (`:>`) become `Assert`s with the reference's message.
//! * **Entry points** keep their surface name; their [`ir::Layout`]s map the
//!   flattened values back to surface values.

pub mod intrinsics;

use intrinsics::var_name;
pub mod types;

use std::collections::{HashMap, HashSet};

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::value::PrimType;

use crate::core::{self, ExprKind, LoopForm, PatKind, Size};
use crate::ir::{
    self, Body, CmpOp, ConvOp, EntryParam, EntryPoint, Exp, ExtDim, ExtType, FunName, Lambda,
    Param, PrimValue, Statement, SubExp, VName,
};
pub use types::{leaves, Leaf};

pub type LowerResult<T> = Result<T, Diagnostic>;

/// The IR values of one core value, in [`leaves`] order.
pub type Values = Vec<SubExp>;

/// Core variables in scope, by id.
type Env = imbl::HashMap<u32, Values>;

/// A lowered top-level function: its IR name, how many `i64` size
/// parameters precede its values, and its core result type.
#[derive(Clone)]
struct FunctionInfo {
    name: FunName,
    result: core::Type,
}

/// Lowers a first-order core program to the IR.
pub fn lower_program(program: &core::Program) -> LowerResult<ir::Program> {
    let mut lowerer = Lowerer {
        names: ir::NameSource::starting_at(0),
        types: HashMap::new(),
        functions: HashMap::new(),
        used_function_names: HashSet::new(),
    };
    // Entry points are lowered last: each starts by calling every top-level
    // constant, in order (the reference evaluates every declaration before
    // the entry point, so a failing constant fails the run first, used or
    // not); the functions keep the program's order.
    let mut functions = vec![None; program.definitions.len()];
    let mut constants = Vec::new();
    for (index, definition) in program.definitions.iter().enumerate() {
        if definition.entry {
            continue;
        }
        let (function, _) = lowerer.function(definition, &[])?;
        if is_constant(&definition.function) {
            constants.push(definition.function.name.id);
        }
        functions[index] = Some(function);
    }
    let mut entry_points = Vec::new();
    for (index, definition) in program.definitions.iter().enumerate() {
        if !definition.entry {
            continue;
        }
        let (function, entry) = lowerer.function(definition, &constants)?;
        entry_points.extend(entry);
        functions[index] = Some(function);
    }
    Ok(ir::Program {
        functions: functions.into_iter().flatten().collect(),
        entry_points,
    })
}

/// A top-level constant: a definition of no parameters.
fn is_constant(function: &core::Function) -> bool {
    function.type_params.is_empty() && function.size_params.is_empty() && function.params.is_empty()
}

pub(crate) fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!(
        "{what} is not supported by the optimising compiler yet"
    ))
    .with_code("unsupported")
    .with_primary(span, "not supported yet")
}

pub(crate) fn internal(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!("internal error in lowering: {what}"))
        .with_code("internal")
        .with_primary(span, "while lowering this")
}

pub struct Lowerer {
    names: ir::NameSource,
    /// The type of every IR name bound so far (names are unique).
    types: HashMap<VName, ir::Type>,
    functions: HashMap<u32, FunctionInfo>,
    used_function_names: HashSet<String>,
}

/// Where statements go: a body under construction.
pub type Block = Vec<Statement>;

fn i64c(n: i64) -> SubExp {
    SubExp::i64(n)
}

impl Lowerer {
    // -----------------------------------------------------------------------
    // Names, types, statements

    pub(crate) fn fresh(&mut self, base: &str) -> VName {
        self.names.fresh(base)
    }

    pub(crate) fn type_of(&self, value: &SubExp) -> ir::Type {
        match value {
            SubExp::Constant(c) => ir::Type::Prim(c.prim_type()),
            SubExp::Var(v) => self
                .types
                .get(v)
                .cloned()
                .unwrap_or(ir::Type::Prim(PrimType::I64)),
        }
    }

    pub(crate) fn param(&mut self, base: &str, ty: ir::Type) -> Param {
        let name = self.fresh(base);
        self.types.insert(name.clone(), ty.clone());
        Param { name, ty }
    }

    /// `let name: ty = exp`.
    pub(crate) fn bind(
        &mut self,
        block: &mut Block,
        base: &str,
        ty: ir::Type,
        exp: Exp,
        span: Span,
    ) -> SubExp {
        let param = self.param(base, ty);
        let name = param.name.clone();
        block.push(Statement {
            pattern: vec![param],
            expression: exp,
            span,
        });
        SubExp::Var(name)
    }

    /// `let {names} = exp` for an expression returning `types` (existential
    /// dimensions refer to the pattern's own elements).
    pub(crate) fn bind_ext(
        &mut self,
        block: &mut Block,
        types: &[ExtType],
        exp: Exp,
        span: Span,
    ) -> Vec<SubExp> {
        let names: Vec<VName> = types
            .iter()
            .map(|t| self.fresh(if t.rank() == 0 { "v" } else { "arr" }))
            .collect();
        let pattern: Vec<Param> = names
            .iter()
            .zip(types)
            .map(|(name, ty)| {
                let ty = instantiate(ty, &names);
                self.types.insert(name.clone(), ty.clone());
                Param {
                    name: name.clone(),
                    ty,
                }
            })
            .collect();
        block.push(Statement {
            pattern,
            expression: exp,
            span,
        });
        names.into_iter().map(SubExp::Var).collect()
    }

    pub(crate) fn binop(
        &mut self,
        block: &mut Block,
        op: ir::BinOp,
        ty: PrimType,
        left: SubExp,
        right: SubExp,
        span: Span,
    ) -> SubExp {
        self.bind(
            block,
            "t",
            ir::Type::Prim(ty),
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            },
            span,
        )
    }

    pub(crate) fn cmp(
        &mut self,
        block: &mut Block,
        op: CmpOp,
        ty: PrimType,
        left: SubExp,
        right: SubExp,
        span: Span,
    ) -> SubExp {
        self.bind(
            block,
            "c",
            ir::Type::Prim(PrimType::Bool),
            Exp::CmpOp {
                op,
                ty,
                left,
                right,
            },
            span,
        )
    }

    pub(crate) fn convert(
        &mut self,
        block: &mut Block,
        value: SubExp,
        to: PrimType,
        span: Span,
    ) -> SubExp {
        let from = self.type_of(&value).element();
        if from == to {
            return value;
        }
        self.bind(
            block,
            "conv",
            ir::Type::Prim(to),
            Exp::ConvOp {
                op: ConvOp { from, to },
                operand: value,
            },
            span,
        )
    }

    pub(crate) fn assert(
        &mut self,
        block: &mut Block,
        condition: SubExp,
        message: &str,
        span: Span,
    ) {
        self.assert_with_values(block, condition, message, Vec::new(), span)
    }

    /// An assertion whose message names the values of `operands` (a
    /// template: `ir::message`).
    pub(crate) fn assert_with_values(
        &mut self,
        block: &mut Block,
        condition: SubExp,
        template: &str,
        operands: Vec<SubExp>,
        span: Span,
    ) {
        if condition == SubExp::Constant(PrimValue::Bool(true)) {
            return;
        }
        block.push(Statement {
            pattern: Vec::new(),
            expression: Exp::Assert {
                condition,
                message: template.to_string(),
                operands,
                span,
            },
            span,
        });
    }

    /// `value` with its shape made `shape` (symbolically): each differing
    /// dimension checked at run time, then a `Reshape`.
    pub(crate) fn coerce_shape(
        &mut self,
        block: &mut Block,
        value: SubExp,
        shape: &[SubExp],
        message: &str,
        span: Span,
    ) -> SubExp {
        self.coerce_shape_naming_dimensions(block, value, shape, &|_| message.to_string(), span)
    }

    /// [`Self::coerce_shape`] with the message of each dimension's check
    /// given by `message(depth)`.
    pub(crate) fn coerce_shape_naming_dimensions(
        &mut self,
        block: &mut Block,
        value: SubExp,
        shape: &[SubExp],
        message: &dyn Fn(usize) -> String,
        span: Span,
    ) -> SubExp {
        let ty = self.type_of(&value);
        if ty.shape() == shape {
            return value;
        }
        let mut differs = false;
        for (depth, (actual, expected)) in ty.shape().iter().zip(shape).enumerate() {
            if actual != expected {
                differs = true;
                let same = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    actual.clone(),
                    expected.clone(),
                    span,
                );
                self.assert(block, same, &message(depth), span);
            }
        }
        if !differs || ty.rank() != shape.len() {
            return value;
        }
        let Some(array) = value.as_var().cloned() else {
            return value;
        };
        self.bind(
            block,
            "reshaped",
            ir::Type::Array {
                element: ty.element(),
                shape: shape.to_vec(),
            },
            Exp::Reshape {
                shape: shape.to_vec(),
                array,
            },
            span,
        )
    }

    /// `if condition then a else b` on primitive values.
    pub(crate) fn select(
        &mut self,
        block: &mut Block,
        condition: SubExp,
        a: SubExp,
        b: SubExp,
        span: Span,
    ) -> SubExp {
        let ty = self.type_of(&a);
        self.bind(
            block,
            "sel",
            ty.clone(),
            Exp::If {
                condition,
                then_body: Body {
                    statements: Vec::new(),
                    result: vec![a],
                },
                else_body: Body {
                    statements: Vec::new(),
                    result: vec![b],
                },
                types: vec![ty.to_ext()],
            },
            span,
        )
    }

    /// The outer dimension of an array value.
    pub(crate) fn outer(&self, value: &SubExp) -> Option<SubExp> {
        self.type_of(value).outer_dim().cloned()
    }

    /// A zero of a leaf type with every dimension 0 (the inactive payloads
    /// of a sum).
    pub(crate) fn blank(&mut self, block: &mut Block, leaf: &Leaf, span: Span) -> SubExp {
        let zero = SubExp::Constant(zero_of(leaf.prim));
        if leaf.dims.is_empty() {
            return zero;
        }
        let shape = vec![i64c(0); leaf.dims.len()];
        self.bind(
            block,
            "blank",
            ir::Type::Array {
                element: leaf.prim,
                shape: shape.clone(),
            },
            Exp::Replicate { shape, value: zero },
            span,
        )
    }

    // -----------------------------------------------------------------------
    // Functions and entry points

    fn function_name(&mut self, base: &str) -> FunName {
        let mut name = base.to_string();
        let mut counter = 1;
        while !self.used_function_names.insert(name.clone()) {
            name = format!("{base}_{counter}");
            counter += 1;
        }
        FunName(name)
    }

    /// Lowers one definition; `constants` (ids of lowered top-level
    /// constants, in order) are called first, their results unused.
    fn function(
        &mut self,
        definition: &core::Definition,
        constants: &[u32],
    ) -> LowerResult<(ir::Function, Option<EntryPoint>)> {
        let function = &definition.function;
        let span = function.span;
        let name = if definition.entry {
            self.function_name(&format!("entry_{}", function.name.base))
        } else {
            self.function_name(&format!("{}_{}", function.name.base, function.name.id))
        };
        let mut env = Env::new();
        let mut size_params = Vec::new();
        let mut value_params = Vec::new();
        let mut block = Block::new();
        for id in constants {
            let info = self.functions[id].clone();
            let types = self.call_types(&info, span)?;
            self.bind_existential(
                &mut block,
                &types,
                Exp::Apply {
                    function: info.name,
                    args: Vec::new(),
                },
                span,
            );
        }
        let mut param_leaves = Vec::new();
        for pat in &function.params {
            let mut values = Vec::new();
            let described = described_leaves(pat)?;
            for (leaf, description) in leaves(&pat.ty, pat.span)?.into_iter().zip(described) {
                let shape: Vec<SubExp> = leaf
                    .dims
                    .iter()
                    .map(|_| {
                        let p = self.param("d", ir::Type::Prim(PrimType::I64));
                        let d = SubExp::Var(p.name.clone());
                        size_params.push(p);
                        d
                    })
                    .collect();
                let p = self.param(&pattern_base(pat), leaf_type(leaf.prim, shape));
                values.push(SubExp::Var(p.name.clone()));
                value_params.push(p);
                param_leaves.push((leaf, description, values.last().cloned().expect("pushed")));
            }
            self.bind_pattern(&mut env, pat, values)?;
        }
        let size_names: HashSet<u32> = function.size_params.iter().map(|v| v.id).collect();
        for (leaf, (what, pattern_span), value) in &param_leaves {
            let shape = self.type_of(value).shape().to_vec();
            for (depth, (dim, actual)) in leaf.dims.iter().zip(shape).enumerate() {
                self.check_dim(
                    &mut env,
                    &mut block,
                    &size_names,
                    dim,
                    depth,
                    actual,
                    what,
                    *pattern_span,
                )?;
            }
        }
        let result = self.expression(&env, &mut block, &function.body)?;
        // The declared result sizes are checked (Futhark checks them too).
        let no_size_params = HashSet::new();
        for (leaf, value) in leaves(&function.result, span)?.iter().zip(&result) {
            let shape = self.type_of(value).shape().to_vec();
            for (depth, (dim, actual)) in leaf.dims.iter().zip(shape).enumerate() {
                self.check_dim(
                    &mut env,
                    &mut block,
                    &no_size_params,
                    dim,
                    depth,
                    actual,
                    "the result",
                    function.body.span,
                )?;
            }
        }
        let (return_types, results) = self.existential_results(&function.result, &result, span)?;
        let mut params = size_params.clone();
        params.extend(value_params.iter().cloned());
        let ir_function = ir::Function {
            name: name.clone(),
            params,
            return_types,
            body: Body {
                statements: block,
                result: results,
            },
            span,
        };
        self.functions.insert(
            function.name.id,
            FunctionInfo {
                name: name.clone(),
                result: function.result.clone(),
            },
        );
        let entry = if definition.entry {
            let parameters = function
                .params
                .iter()
                .map(|pat| {
                    Ok(EntryParam {
                        name: pattern_base(pat),
                        layout: types::layout(&pat.ty, pat.span)?,
                    })
                })
                .collect::<LowerResult<Vec<_>>>()?;
            let size_results = leaves(&function.result, span)?
                .iter()
                .map(|l| l.dims.len())
                .sum();
            Some(EntryPoint {
                name: function.name.base.to_string(),
                function: name,
                size_parameters: size_params.len(),
                parameters,
                size_results,
                result: types::layout(&function.result, span)?,
            })
        } else {
            None
        };
        Ok((ir_function, entry))
    }

    /// A core dimension against the actual one: binds an unbound size
    /// parameter, checks a bound one or a constant.
    #[allow(clippy::too_many_arguments)]
    fn check_dim(
        &mut self,
        env: &mut Env,
        block: &mut Block,
        size_params: &HashSet<u32>,
        dim: &Size,
        depth: usize,
        actual: SubExp,
        what: &str,
        span: Span,
    ) -> LowerResult<()> {
        match dim {
            Size::Unknown => {}
            Size::Constant(c) => {
                let same = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    actual,
                    i64c(*c as i64),
                    span,
                );
                self.assert(block, same, &size_mismatch(dim, depth, what), span);
            }
            Size::Var(var) => match env.get(&var.id) {
                Some(values) => {
                    let expected = values[0].clone();
                    if expected != actual {
                        let same =
                            self.cmp(block, CmpOp::Eq, PrimType::I64, actual, expected, span);
                        self.assert(block, same, &size_mismatch(dim, depth, what), span);
                    }
                }
                None if size_params.contains(&var.id) => {
                    env.insert(var.id, vec![actual]);
                }
                None => {}
            },
        }
        Ok(())
    }

    /// Result types with every array dimension existential: the dimensions
    /// (as `i64` results) first, then the values.
    pub(crate) fn existential_results(
        &mut self,
        ty: &core::Type,
        values: &[SubExp],
        span: Span,
    ) -> LowerResult<(Vec<ExtType>, Vec<SubExp>)> {
        let leaves = leaves(ty, span)?;
        if leaves.len() != values.len() {
            return Err(internal(span, "a value does not match its type"));
        }
        let mut sizes = Vec::new();
        let mut types = Vec::new();
        let total: usize = values.iter().map(|v| self.type_of(v).rank()).sum();
        let mut next = 0;
        for value in values {
            let ty = self.type_of(value);
            match &ty {
                ir::Type::Prim(p) => types.push(ExtType::Prim(*p)),
                ir::Type::Array { element, shape } => {
                    let dims = shape
                        .iter()
                        .map(|d| {
                            sizes.push(d.clone());
                            next += 1;
                            ExtDim::Existential(next - 1)
                        })
                        .collect();
                    types.push(ExtType::Array {
                        element: *element,
                        shape: dims,
                    });
                }
            }
        }
        debug_assert_eq!(total, sizes.len());
        let mut all_types = vec![ExtType::Prim(PrimType::I64); sizes.len()];
        all_types.extend(types);
        let mut results = sizes;
        results.extend(values.iter().cloned());
        Ok((all_types, results))
    }

    /// Binds the results of an expression returned by [`Self::existential_results`].
    pub(crate) fn bind_existential(
        &mut self,
        block: &mut Block,
        types: &[ExtType],
        exp: Exp,
        span: Span,
    ) -> Values {
        let sizes: usize = types.iter().map(|t| t.rank()).sum();
        let values = self.bind_ext(block, types, exp, span);
        values[sizes..].to_vec()
    }

    // -----------------------------------------------------------------------
    // Patterns

    /// Binds a core pattern to the IR values of a value (irrefutably).
    pub(crate) fn bind_pattern(
        &mut self,
        env: &mut Env,
        pat: &core::Pat,
        values: Values,
    ) -> LowerResult<()> {
        match &pat.kind {
            PatKind::Var(name) => {
                env.insert(name.id, values);
            }
            PatKind::Wildcard | PatKind::Literal(_) => {}
            PatKind::Record(fields) => {
                let core::Type::Record(types) = &pat.ty else {
                    return Err(internal(pat.span, "a record pattern of a non-record type"));
                };
                for (field, sub) in fields {
                    let range = types::field_range(types, field, pat.span)?;
                    self.bind_pattern(env, sub, values[range].to_vec())?;
                }
            }
            PatKind::Constructor { name, payload } => {
                let core::Type::Sum(constructors) = &pat.ty else {
                    return Err(internal(
                        pat.span,
                        "a constructor pattern of a non-sum type",
                    ));
                };
                let ranges = types::payload_ranges(constructors, name, pat.span)?;
                for (sub, range) in payload.iter().zip(ranges) {
                    self.bind_pattern(env, sub, values[range].to_vec())?;
                }
            }
        }
        Ok(())
    }

    /// Whether the value matches a (refutable) pattern: a `bool`.
    pub(crate) fn pattern_test(
        &mut self,
        block: &mut Block,
        pat: &core::Pat,
        values: &[SubExp],
    ) -> LowerResult<SubExp> {
        let mut conditions = Vec::new();
        self.pattern_conditions(block, pat, values, &mut conditions)?;
        let mut result = SubExp::Constant(PrimValue::Bool(true));
        for condition in conditions {
            result = if result == SubExp::Constant(PrimValue::Bool(true)) {
                condition
            } else {
                self.binop(
                    block,
                    ir::BinOp::LogAnd,
                    PrimType::Bool,
                    result,
                    condition,
                    pat.span,
                )
            };
        }
        Ok(result)
    }

    fn pattern_conditions(
        &mut self,
        block: &mut Block,
        pat: &core::Pat,
        values: &[SubExp],
        out: &mut Vec<SubExp>,
    ) -> LowerResult<()> {
        match &pat.kind {
            PatKind::Var(_) | PatKind::Wildcard => {}
            PatKind::Literal(value) => {
                let ty = core::prim_type_of(*value);
                let c = self.cmp(
                    block,
                    CmpOp::Eq,
                    ty,
                    values[0].clone(),
                    SubExp::Constant(*value),
                    pat.span,
                );
                out.push(c);
            }
            PatKind::Record(fields) => {
                let core::Type::Record(types) = &pat.ty else {
                    return Err(internal(pat.span, "a record pattern of a non-record type"));
                };
                for (field, sub) in fields {
                    let range = types::field_range(types, field, pat.span)?;
                    self.pattern_conditions(block, sub, &values[range], out)?;
                }
            }
            PatKind::Constructor { name, payload } => {
                let core::Type::Sum(constructors) = &pat.ty else {
                    return Err(internal(
                        pat.span,
                        "a constructor pattern of a non-sum type",
                    ));
                };
                let tag = constructors
                    .keys()
                    .position(|c| c == name)
                    .ok_or_else(|| internal(pat.span, "an unknown constructor"))?;
                let c = self.cmp(
                    block,
                    CmpOp::Eq,
                    ir::SUM_TAG_TYPE,
                    values[0].clone(),
                    SubExp::Constant(PrimValue::U8(tag as u8)),
                    pat.span,
                );
                out.push(c);
                let ranges = types::payload_ranges(constructors, name, pat.span)?;
                for (sub, range) in payload.iter().zip(ranges) {
                    self.pattern_conditions(block, sub, &values[range], out)?;
                }
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Expressions

    pub(crate) fn expression(
        &mut self,
        env: &Env,
        block: &mut Block,
        e: &core::Expr,
    ) -> LowerResult<Values> {
        spec::recursion::with_stack(|| self.expression_inner(env, block, e))
    }

    fn one(&mut self, env: &Env, block: &mut Block, e: &core::Expr) -> LowerResult<SubExp> {
        let values = self.expression(env, block, e)?;
        match values.as_slice() {
            [value] => Ok(value.clone()),
            _ => Err(internal(
                e.span,
                "a primitive expression with several values",
            )),
        }
    }

    fn expression_inner(
        &mut self,
        env: &Env,
        block: &mut Block,
        e: &core::Expr,
    ) -> LowerResult<Values> {
        let span = e.span;
        match &e.kind {
            ExprKind::Literal(value) => Ok(vec![SubExp::Constant(*value)]),
            ExprKind::Var { name, .. } => {
                if let Some(values) = env.get(&name.id) {
                    return Ok(values.clone());
                }
                match self.functions.get(&name.id).cloned() {
                    Some(info) => {
                        let types = self.call_types(&info, span)?;
                        Ok(self.bind_existential(
                            block,
                            &types,
                            Exp::Apply {
                                function: info.name,
                                args: Vec::new(),
                            },
                            span,
                        ))
                    }
                    None => Err(internal(span, &format!("unbound variable `{}`", name.base))),
                }
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                let left = self.one(env, block, lhs)?;
                let right = self.one(env, block, rhs)?;
                Ok(vec![self.core_binop(block, *op, left, right, span)])
            }
            ExprKind::UnOp { op, operand } => {
                let value = self.one(env, block, operand)?;
                let (op, ty) = match op {
                    core::UnOp::Neg(p) => (ir::UnOp::Neg, *p),
                    core::UnOp::Not(p) => (ir::UnOp::Not, *p),
                };
                Ok(vec![self.bind(
                    block,
                    "t",
                    ir::Type::Prim(ty),
                    Exp::UnOp {
                        op,
                        ty,
                        operand: value,
                    },
                    span,
                )])
            }
            ExprKind::Equal { negated, lhs, rhs } => {
                let left = self.expression(env, block, lhs)?;
                let right = self.expression(env, block, rhs)?;
                let equal = self.equal_values(block, &left, &right, span)?;
                if *negated {
                    Ok(vec![self.bind(
                        block,
                        "ne",
                        ir::Type::Prim(PrimType::Bool),
                        Exp::UnOp {
                            op: ir::UnOp::Not,
                            ty: PrimType::Bool,
                            operand: equal,
                        },
                        span,
                    )])
                } else {
                    Ok(vec![equal])
                }
            }
            ExprKind::Record(fields) => {
                let core::Type::Record(types) = &e.ty else {
                    return Err(internal(span, "a record of a non-record type"));
                };
                let mut by_field = HashMap::new();
                for (field, value) in fields {
                    by_field.insert(field.clone(), self.expression(env, block, value)?);
                }
                let mut values = Vec::new();
                for field in types.keys() {
                    values.extend(
                        by_field
                            .remove(field)
                            .ok_or_else(|| internal(span, "a record literal misses a field"))?,
                    );
                }
                Ok(values)
            }
            ExprKind::Project { record, field } => {
                let values = self.expression(env, block, record)?;
                let core::Type::Record(types) = &record.ty else {
                    return Err(internal(span, "a projection from a non-record"));
                };
                let range = types::field_range(types, field, span)?;
                Ok(values[range].to_vec())
            }
            ExprKind::RecordUpdate {
                target,
                path,
                value,
            } => {
                let mut values = self.expression(env, block, target)?;
                let new = self.expression(env, block, value)?;
                let mut ty = &target.ty;
                let mut offset = 0;
                for field in path {
                    let core::Type::Record(types) = ty else {
                        return Err(internal(span, "a record update of a non-record"));
                    };
                    let range = types::field_range(types, field, span)?;
                    offset += range.start;
                    ty = &types[field];
                }
                let count = leaves(ty, span)?.len();
                values.splice(offset..offset + count, new);
                Ok(values)
            }
            ExprKind::Constructor { name, payload } => {
                let core::Type::Sum(constructors) = &e.ty else {
                    return Err(internal(span, "a constructor of a non-sum type"));
                };
                let tag = constructors
                    .keys()
                    .position(|c| c == name)
                    .ok_or_else(|| internal(span, "an unknown constructor"))?;
                let mut given = Vec::new();
                for value in payload {
                    given.extend(self.expression(env, block, value)?);
                }
                let mut values = vec![SubExp::Constant(PrimValue::U8(tag as u8))];
                for (constructor, types) in constructors.iter() {
                    if constructor == name {
                        values.extend(given.iter().cloned());
                    } else {
                        for ty in types {
                            for leaf in leaves(ty, span)? {
                                values.push(self.blank(block, &leaf, span));
                            }
                        }
                    }
                }
                Ok(values)
            }
            ExprKind::ArrayLit(elements) => self.array_literal(env, block, e, elements),
            ExprKind::Range {
                start,
                step,
                end,
                end_kind,
            } => {
                let start = self.one(env, block, start)?;
                let step = step.as_ref().map(|s| self.one(env, block, s)).transpose()?;
                let end = self.one(env, block, end)?;
                Ok(vec![self.range(block, start, step, end, *end_kind, span)?])
            }
            ExprKind::Index { array, indices } => {
                let values = self.expression(env, block, array)?;
                self.index(env, block, values, indices, span)
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let arrays = self.expression(env, block, target)?;
                let new = self.expression(env, block, value)?;
                if let Some(position) = indices
                    .iter()
                    .position(|index| matches!(index, core::DimIndex::Slice { .. }))
                {
                    return self.slice_update(env, block, arrays, new, indices, position, span);
                }
                let mut fixed = Vec::new();
                for index in indices {
                    if let core::DimIndex::Index(i) = index {
                        let i = self.one(env, block, i)?;
                        fixed.push(self.convert(block, i, PrimType::I64, span));
                    }
                }
                let mut out = Vec::new();
                for (array, value) in arrays.into_iter().zip(new) {
                    let ty = self.type_of(&array);
                    let Some(name) = array.as_var().cloned() else {
                        return Err(internal(span, "an update of a constant"));
                    };
                    let expected = ty.shape()[fixed.len()..].to_vec();
                    let value = if expected.is_empty() {
                        value
                    } else {
                        self.coerce_shape(
                            block,
                            value,
                            &expected,
                            "Size mismatch: the new value's shape does not match the updated part.",
                            span,
                        )
                    };
                    out.push(self.bind(
                        block,
                        "updated",
                        ty,
                        Exp::Update {
                            array: name,
                            indices: fixed.clone(),
                            value,
                        },
                        span,
                    ));
                }
                Ok(out)
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                let values = self.expression(env, block, value)?;
                let mut inner = env.clone();
                if !sizes.is_empty() {
                    let size_ids: HashSet<u32> = sizes.iter().map(|v| v.id).collect();
                    let described = described_leaves(pat)?;
                    for ((leaf, v), (what, pattern_span)) in
                        leaves(&pat.ty, span)?.iter().zip(&values).zip(described)
                    {
                        let shape = self.type_of(v).shape().to_vec();
                        for (depth, (dim, actual)) in leaf.dims.iter().zip(shape).enumerate() {
                            self.check_dim(
                                &mut inner,
                                block,
                                &size_ids,
                                dim,
                                depth,
                                actual,
                                &what,
                                pattern_span,
                            )?;
                        }
                    }
                }
                self.bind_pattern(&mut inner, pat, values)?;
                self.expression(&inner, block, body)
            }
            ExprKind::LetFun { .. } | ExprKind::Lambda { .. } => {
                Err(internal(span, "a function value after defunctionalisation"))
            }
            ExprKind::Apply { function, args } => {
                let ExprKind::Var { name, .. } = &function.kind else {
                    return Err(internal(
                        span,
                        "an application of a computed function after defunctionalisation",
                    ));
                };
                let info = self.functions.get(&name.id).cloned().ok_or_else(|| {
                    internal(
                        span,
                        &format!("a call of the unknown function `{}`", name.base),
                    )
                })?;
                let mut sizes = Vec::new();
                let mut values = Vec::new();
                for arg in args {
                    for value in self.expression(env, block, arg)? {
                        sizes.extend(self.type_of(&value).shape().iter().cloned());
                        values.push(value);
                    }
                }
                sizes.extend(values);
                let types = self.call_types(&info, span)?;
                Ok(self.bind_existential(
                    block,
                    &types,
                    Exp::Apply {
                        function: info.name,
                        args: sizes,
                    },
                    span,
                ))
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                let condition = self.one(env, block, condition)?;
                let mut then_block = Block::new();
                let then_values = self.expression(env, &mut then_block, then_branch)?;
                let mut else_block = Block::new();
                let else_values = self.expression(env, &mut else_block, else_branch)?;
                self.branches(
                    block,
                    condition,
                    (then_block, then_values),
                    (else_block, else_values),
                    &e.ty,
                    span,
                )
            }
            ExprKind::Match { scrutinee, cases } => {
                let values = self.expression(env, block, scrutinee)?;
                self.match_cases(env, block, &values, cases, &e.ty, span)
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => self.loop_expression(env, block, pat, init, form, body, span),
            ExprKind::Coerce(inner) => {
                let values = self.expression(env, block, inner)?;
                let mut out = Vec::new();
                for (leaf, value) in leaves(&e.ty, span)?.iter().zip(values) {
                    let ty = self.type_of(&value);
                    let mut shape = ty.shape().to_vec();
                    let message =
                        |depth: usize| size_mismatch(&leaf.dims[depth], depth, "the value");
                    for (dim, actual) in leaf.dims.iter().zip(shape.iter_mut()) {
                        let expected = match dim {
                            Size::Constant(c) => Some(i64c(*c as i64)),
                            Size::Var(v) => env.get(&v.id).map(|vs| vs[0].clone()),
                            Size::Unknown => None,
                        };
                        if let Some(expected) = expected {
                            *actual = expected;
                        }
                    }
                    out.push(
                        self.coerce_shape_naming_dimensions(block, value, &shape, &message, span),
                    );
                }
                Ok(out)
            }
            ExprKind::Intrinsic {
                intrinsic,
                type_args,
                args,
            } => self.intrinsic(env, block, e, intrinsic, type_args, args),
        }
    }

    /// The result types of a call of `info`'s function.
    fn call_types(&mut self, info: &FunctionInfo, span: Span) -> LowerResult<Vec<ExtType>> {
        let leaves = leaves(&info.result, span)?;
        let dims: usize = leaves.iter().map(|l| l.dims.len()).sum();
        let mut types = vec![ExtType::Prim(PrimType::I64); dims];
        let mut next = 0;
        for leaf in leaves {
            if leaf.dims.is_empty() {
                types.push(ExtType::Prim(leaf.prim));
            } else {
                let shape = leaf
                    .dims
                    .iter()
                    .map(|_| {
                        next += 1;
                        ExtDim::Existential(next - 1)
                    })
                    .collect();
                types.push(ExtType::Array {
                    element: leaf.prim,
                    shape,
                });
            }
        }
        Ok(types)
    }

    fn core_binop(
        &mut self,
        block: &mut Block,
        op: core::BinOp,
        left: SubExp,
        right: SubExp,
        span: Span,
    ) -> SubExp {
        use core::BinOp as B;
        let ty = op.operand();
        let arith = match op {
            B::Add(_) => Some(ir::BinOp::Add),
            B::Sub(_) => Some(ir::BinOp::Sub),
            B::Mul(_) => Some(ir::BinOp::Mul),
            B::Div(_) => Some(ir::BinOp::Div),
            B::Rem(_) => Some(ir::BinOp::Mod),
            B::Pow(_) => Some(ir::BinOp::Pow),
            B::Quot(_) => Some(ir::BinOp::Quot),
            B::Mod(_) => Some(ir::BinOp::Rem),
            B::BitAnd(_) => Some(ir::BinOp::And),
            B::BitOr(_) => Some(ir::BinOp::Or),
            B::BitXor(_) => Some(ir::BinOp::Xor),
            B::Shl(_) => Some(ir::BinOp::Shl),
            B::Shr(_) => Some(ir::BinOp::Shr),
            B::LogicalShr(_) => Some(ir::BinOp::UShr),
            _ => None,
        };
        if let Some(op) = arith {
            return self.binop(block, op, ty, left, right, span);
        }
        let cmp = match op {
            B::Eq(_) => CmpOp::Eq,
            B::Ne(_) => CmpOp::Ne,
            B::Lt(_) => CmpOp::Lt,
            B::Le(_) => CmpOp::Le,
            B::Gt(_) => CmpOp::Gt,
            _ => CmpOp::Ge,
        };
        self.cmp(block, cmp, ty, left, right, span)
    }

    /// Structural equality of two flattened values: every leaf equal (arrays:
    /// same shape and every element equal).
    fn equal_values(
        &mut self,
        block: &mut Block,
        left: &[SubExp],
        right: &[SubExp],
        span: Span,
    ) -> LowerResult<SubExp> {
        let mut result = SubExp::Constant(PrimValue::Bool(true));
        for (a, b) in left.iter().zip(right) {
            let equal = self.equal_leaf(block, a.clone(), b.clone(), span)?;
            result = self.binop(
                block,
                ir::BinOp::LogAnd,
                PrimType::Bool,
                result,
                equal,
                span,
            );
        }
        Ok(result)
    }

    fn equal_leaf(
        &mut self,
        block: &mut Block,
        a: SubExp,
        b: SubExp,
        span: Span,
    ) -> LowerResult<SubExp> {
        let ta = self.type_of(&a);
        let tb = self.type_of(&b);
        let element = ta.element();
        if ta.rank() == 0 {
            return Ok(self.cmp(block, CmpOp::Eq, element, a, b, span));
        }
        let mut same_shape = SubExp::Constant(PrimValue::Bool(true));
        for (x, y) in ta.shape().iter().zip(tb.shape()) {
            let c = self.cmp(block, CmpOp::Eq, PrimType::I64, x.clone(), y.clone(), span);
            same_shape = self.binop(
                block,
                ir::BinOp::LogAnd,
                PrimType::Bool,
                same_shape,
                c,
                span,
            );
        }
        // Then branch: flatten both to one dimension and compare elementwise.
        let mut then_block = Block::new();
        let mut total = i64c(1);
        for d in ta.shape() {
            total = self.binop(
                &mut then_block,
                ir::BinOp::Mul,
                PrimType::I64,
                total,
                d.clone(),
                span,
            );
        }
        let flat_type = ir::Type::Array {
            element,
            shape: vec![total.clone()],
        };
        let (Some(va), Some(vb)) = (a.as_var().cloned(), b.as_var().cloned()) else {
            return Err(internal(span, "an array constant"));
        };
        let fa = self.bind(
            &mut then_block,
            "flat",
            flat_type.clone(),
            Exp::Reshape {
                shape: vec![total.clone()],
                array: va,
            },
            span,
        );
        let fb = self.bind(
            &mut then_block,
            "flat",
            flat_type,
            Exp::Reshape {
                shape: vec![total.clone()],
                array: vb,
            },
            span,
        );
        let x = self.param("x", ir::Type::Prim(element));
        let y = self.param("y", ir::Type::Prim(element));
        let mut lambda_block = Block::new();
        let eq = self.cmp(
            &mut lambda_block,
            CmpOp::Eq,
            element,
            SubExp::Var(x.name.clone()),
            SubExp::Var(y.name.clone()),
            span,
        );
        let map_lambda = Lambda {
            params: vec![x, y],
            body: Body {
                statements: lambda_block,
                result: vec![eq],
            },
            return_types: vec![ir::Type::Prim(PrimType::Bool)],
        };
        let p = self.param("p", ir::Type::Prim(PrimType::Bool));
        let q = self.param("q", ir::Type::Prim(PrimType::Bool));
        let mut and_block = Block::new();
        let and = self.binop(
            &mut and_block,
            ir::BinOp::LogAnd,
            PrimType::Bool,
            SubExp::Var(p.name.clone()),
            SubExp::Var(q.name.clone()),
            span,
        );
        let reduce_lambda = Lambda {
            params: vec![p, q],
            body: Body {
                statements: and_block,
                result: vec![and],
            },
            return_types: vec![ir::Type::Prim(PrimType::Bool)],
        };
        let all = self.bind(
            &mut then_block,
            "all",
            ir::Type::Prim(PrimType::Bool),
            Exp::Soac(ir::Soac::Redomap {
                width: total,
                map_lambda,
                reduce_lambda,
                neutral: vec![SubExp::Constant(PrimValue::Bool(true))],
                arrays: vec![
                    fa.as_var().cloned().expect("var"),
                    fb.as_var().cloned().expect("var"),
                ],
            }),
            span,
        );
        Ok(self.bind(
            block,
            "eq",
            ir::Type::Prim(PrimType::Bool),
            Exp::If {
                condition: same_shape,
                then_body: Body {
                    statements: then_block,
                    result: vec![all],
                },
                else_body: Body {
                    statements: Vec::new(),
                    result: vec![SubExp::Constant(PrimValue::Bool(false))],
                },
                types: vec![ExtType::Prim(PrimType::Bool)],
            },
            span,
        ))
    }

    /// An `if` of two lowered branches; array results get existential sizes.
    fn branches(
        &mut self,
        block: &mut Block,
        condition: SubExp,
        then_branch: (Block, Values),
        else_branch: (Block, Values),
        ty: &core::Type,
        span: Span,
    ) -> LowerResult<Values> {
        let (then_types, then_results) = self.existential_results(ty, &then_branch.1, span)?;
        let (_, else_results) = self.existential_results(ty, &else_branch.1, span)?;
        let types = then_types;
        let exp = Exp::If {
            condition,
            then_body: Body {
                statements: then_branch.0,
                result: then_results,
            },
            else_body: Body {
                statements: else_branch.0,
                result: else_results,
            },
            types: types.clone(),
        };
        Ok(self.bind_existential(block, &types, exp, span))
    }

    /// `match` as a chain of `if`s on the patterns' tests.
    fn match_cases(
        &mut self,
        env: &Env,
        block: &mut Block,
        values: &[SubExp],
        cases: &[core::Case],
        ty: &core::Type,
        span: Span,
    ) -> LowerResult<Values> {
        let Some((first, rest)) = cases.split_first() else {
            return Err(internal(span, "a match without cases"));
        };
        let mut inner = env.clone();
        let mut case_block = Block::new();
        self.bind_pattern(&mut inner, &first.pat, values.to_vec())?;
        let case_values = self.expression(&inner, &mut case_block, &first.body)?;
        if rest.is_empty() {
            block.extend(case_block);
            return Ok(case_values);
        }
        let test = self.pattern_test(block, &first.pat, values)?;
        let mut else_block = Block::new();
        let else_values = self.match_cases(env, &mut else_block, values, rest, ty, span)?;
        self.branches(
            block,
            test,
            (case_block, case_values),
            (else_block, else_values),
            ty,
            span,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_expression(
        &mut self,
        env: &Env,
        block: &mut Block,
        pat: &core::Pat,
        init: &core::Expr,
        form: &LoopForm,
        body: &core::Expr,
        span: Span,
    ) -> LowerResult<Values> {
        let initial = self.expression(env, block, init)?;
        // Loop parameters: one `i64` per dimension of each array, then the values.
        let mut size_params: Vec<(Param, SubExp)> = Vec::new();
        let mut value_params: Vec<(Param, SubExp)> = Vec::new();
        for value in &initial {
            let ty = self.type_of(value);
            let shape: Vec<SubExp> = ty
                .shape()
                .iter()
                .map(|d| {
                    let p = self.param("loop_d", ir::Type::Prim(PrimType::I64));
                    let name = SubExp::Var(p.name.clone());
                    size_params.push((p, d.clone()));
                    name
                })
                .collect();
            let p = self.param(&pattern_base(pat), leaf_type(ty.element(), shape));
            value_params.push((p, value.clone()));
        }
        let param_values: Values = value_params
            .iter()
            .map(|(p, _)| SubExp::Var(p.name.clone()))
            .collect();
        let mut inner = env.clone();
        let mut body_block = Block::new();
        self.bind_pattern(&mut inner, pat, param_values.clone())?;
        let (ir_form, extra_param) = match form {
            LoopForm::For { var, bound } => {
                let bound = self.one(env, block, bound)?;
                let index = self.fresh(&var.base);
                self.types.insert(index.clone(), self.type_of(&bound));
                inner.insert(var.id, vec![SubExp::Var(index.clone())]);
                (ir::LoopForm::For { index, bound }, None)
            }
            LoopForm::ForIn {
                pat: element,
                array,
            } => {
                let arrays = self.expression(env, block, array)?;
                let length = match arrays.first().and_then(|a| self.outer(a)) {
                    Some(length) => length,
                    None => {
                        return Err(unsupported(
                            span,
                            "a `for … in` over an array of empty records",
                        ))
                    }
                };
                let index = self.fresh("i");
                self.types
                    .insert(index.clone(), ir::Type::Prim(PrimType::I64));
                let mut rows = Vec::new();
                for array in &arrays {
                    let ty = self.type_of(array);
                    let row = ty.row_type().expect("an array");
                    let name = array.as_var().cloned().expect("an array variable");
                    rows.push(self.bind(
                        &mut body_block,
                        "row",
                        row,
                        Exp::Index {
                            array: name,
                            indices: vec![SubExp::Var(index.clone())],
                        },
                        span,
                    ));
                }
                self.bind_pattern(&mut inner, element, rows)?;
                (
                    ir::LoopForm::For {
                        index,
                        bound: length,
                    },
                    None,
                )
            }
            LoopForm::While { condition } => {
                // The condition on the initial values, then on each iteration's results.
                let mut first_env = env.clone();
                self.bind_pattern(&mut first_env, pat, initial.clone())?;
                let first = self.one(&first_env, block, condition)?;
                let p = self.param("continue", ir::Type::Prim(PrimType::Bool));
                let name = p.name.clone();
                (
                    ir::LoopForm::While {
                        condition_param: name,
                    },
                    Some((p, first, condition)),
                )
            }
        };
        let new_values = self.expression(&inner, &mut body_block, body)?;
        // Results: sizes, then values, then the next condition.
        let mut results: Vec<SubExp> = Vec::new();
        for value in &new_values {
            results.extend(self.type_of(value).shape().iter().cloned());
        }
        results.extend(new_values.iter().cloned());
        let mut params: Vec<(Param, SubExp)> = size_params;
        params.extend(value_params.iter().cloned());
        if let Some((p, first, condition)) = extra_param {
            let mut next_env = env.clone();
            self.bind_pattern(&mut next_env, pat, new_values.clone())?;
            let next = self.one(&next_env, &mut body_block, condition)?;
            results.push(next);
            params.push((p, first));
        }
        let types: Vec<ExtType> = {
            let positions: HashMap<VName, usize> = params
                .iter()
                .enumerate()
                .map(|(i, (p, _))| (p.name.clone(), i))
                .collect();
            params
                .iter()
                .map(|(p, _)| match &p.ty {
                    ir::Type::Prim(t) => ExtType::Prim(*t),
                    ir::Type::Array { element, shape } => ExtType::Array {
                        element: *element,
                        shape: shape
                            .iter()
                            .map(|d| match d.as_var().and_then(|v| positions.get(v)) {
                                Some(&k) => ExtDim::Existential(k),
                                None => ExtDim::Free(d.clone()),
                            })
                            .collect(),
                    },
                })
                .collect()
        };
        let count = value_params.len();
        let sizes = types.len() - count - usize::from(matches!(form, LoopForm::While { .. }));
        let exp = Exp::Loop {
            params,
            form: ir_form,
            body: Body {
                statements: body_block,
                result: results,
            },
        };
        let all = self.bind_ext(block, &types, exp, span);
        Ok(all[sizes..sizes + count].to_vec())
    }

    /// `target with [p1, …, slice, r1, …] = value` (the first slice at
    /// `position`; SPEC_NOTES TFP18-27): the indices the slice selects are
    /// those of `iota n` sliced (bounds checked as the slice of the array
    /// is), `value` must have one row per index and the updated part's
    /// shape, and a loop writes each row. Only one slice is supported.
    #[allow(clippy::too_many_arguments)]
    fn slice_update(
        &mut self,
        env: &Env,
        block: &mut Block,
        arrays: Values,
        new: Values,
        indices: &[core::DimIndex],
        position: usize,
        span: Span,
    ) -> LowerResult<Values> {
        let mut prefix = Vec::new();
        let mut rest = Vec::new();
        for (k, index) in indices.iter().enumerate() {
            match index {
                core::DimIndex::Index(i) => {
                    let i = self.one(env, block, i)?;
                    let i = self.convert(block, i, PrimType::I64, span);
                    if k < position {
                        prefix.push(i);
                    } else {
                        rest.push(i);
                    }
                }
                core::DimIndex::Slice { .. } if k == position => {}
                core::DimIndex::Slice { .. } => {
                    return Err(unsupported(span, "an update of more than one slice"))
                }
            }
        }
        let Some(first) = arrays.first() else {
            return Err(unsupported(span, "an update of a slice of empty records"));
        };
        let Some(dimension) = self.type_of(first).shape().get(position).cloned() else {
            return Err(internal(span, "a slice past the array's rank"));
        };
        let all = self.bind(
            block,
            "all_indices",
            leaf_type(PrimType::I64, vec![dimension.clone()]),
            Exp::Iota {
                length: dimension,
                start: i64c(0),
                step: i64c(1),
                element: PrimType::I64,
            },
            span,
        );
        let selected = self
            .index(env, block, vec![all], &indices[position..=position], span)?
            .into_iter()
            .next()
            .ok_or_else(|| internal(span, "a slice of one array gave no array"))?;
        let Some(count) = self.outer(&selected) else {
            return Err(internal(span, "a slice that is not an array"));
        };
        let selected_name = var_name(&selected, span)?;
        let mut out = Vec::new();
        for (array, value) in arrays.into_iter().zip(new) {
            let ty = self.type_of(&array);
            let mut expected = vec![count.clone()];
            expected.extend(ty.shape()[position + 1 + rest.len()..].iter().cloned());
            let value = self.coerce_shape(
                block,
                value,
                &expected,
                "Size mismatch: the new value's shape does not match the updated part.",
                span,
            );
            let value_name = var_name(&value, span)?;
            let value_row = self
                .type_of(&value)
                .row_type()
                .ok_or_else(|| internal(span, "the rows of a slice update's value"))?;
            let accumulator = self.param("updated", ty.clone());
            let index = self.fresh("k");
            self.types
                .insert(index.clone(), ir::Type::Prim(PrimType::I64));
            let mut body = Block::new();
            let at = self.bind(
                &mut body,
                "index",
                ir::Type::Prim(PrimType::I64),
                Exp::Index {
                    array: selected_name.clone(),
                    indices: vec![SubExp::Var(index.clone())],
                },
                span,
            );
            let row = self.bind(
                &mut body,
                "row",
                value_row,
                Exp::Index {
                    array: value_name,
                    indices: vec![SubExp::Var(index.clone())],
                },
                span,
            );
            let mut written_at = prefix.clone();
            written_at.push(at);
            written_at.extend(rest.iter().cloned());
            let written = self.bind(
                &mut body,
                "written",
                ty.clone(),
                Exp::Update {
                    array: accumulator.name.clone(),
                    indices: written_at,
                    value: row,
                },
                span,
            );
            let result_type = ty.to_ext();
            let exp = Exp::Loop {
                params: vec![(accumulator, array)],
                form: ir::LoopForm::For {
                    index,
                    bound: count.clone(),
                },
                body: Body {
                    statements: body,
                    result: vec![written],
                },
            };
            out.extend(self.bind_ext(block, &[result_type], exp, span));
        }
        Ok(out)
    }

    fn array_literal(
        &mut self,
        env: &Env,
        block: &mut Block,
        e: &core::Expr,
        elements: &[core::Expr],
    ) -> LowerResult<Values> {
        let span = e.span;
        let Some((_, element_type)) = e.ty.as_array() else {
            return Err(internal(span, "an array literal of a non-array type"));
        };
        let element_leaves = leaves(element_type, span)?;
        let mut rows: Vec<Values> = Vec::new();
        for element in elements {
            rows.push(self.expression(env, block, element)?);
        }
        let mut out = Vec::new();
        for (k, leaf) in element_leaves.iter().enumerate() {
            let row_type = match rows.first() {
                Some(first) => self.type_of(&first[k]),
                None => leaf_type(leaf.prim, vec![i64c(0); leaf.dims.len()]),
            };
            let mut parts = Vec::new();
            for row in &rows {
                let value = if row_type.rank() > 0 {
                    self.coerce_shape(
                        block,
                        row[k].clone(),
                        row_type.shape(),
                        "Size mismatch: the rows of an array literal have different sizes.",
                        span,
                    )
                } else {
                    row[k].clone()
                };
                parts.push(value);
            }
            let ty = row_type.clone().array_of(i64c(rows.len() as i64));
            out.push(self.bind(
                block,
                "lit",
                ty,
                Exp::ArrayLiteral {
                    elements: parts,
                    row_type,
                },
                span,
            ));
        }
        Ok(out)
    }

    fn range(
        &mut self,
        block: &mut Block,
        start: SubExp,
        step: Option<SubExp>,
        end: SubExp,
        end_kind: spec::syntax::ast::RangeEnd,
        span: Span,
    ) -> LowerResult<SubExp> {
        use spec::syntax::ast::RangeEnd;
        let element = self.type_of(&start).element();
        let a = self.convert(block, start.clone(), PrimType::I64, span);
        let end_value = end.clone();
        let b = self.convert(block, end, PrimType::I64, span);
        let s = match (&step, end_kind) {
            (Some(second), _) => {
                let second = self.convert(block, second.clone(), PrimType::I64, span);
                self.binop(
                    block,
                    ir::BinOp::Sub,
                    PrimType::I64,
                    second,
                    a.clone(),
                    span,
                )
            }
            (None, RangeEnd::DownToExclusive) => i64c(-1),
            (None, _) => i64c(1),
        };
        let distance = self.binop(block, ir::BinOp::Sub, PrimType::I64, b, a, span);
        let nonzero_step = self.cmp(block, CmpOp::Ne, PrimType::I64, s.clone(), i64c(0), span);
        let distance_sign = self.bind(
            block,
            "sgn",
            ir::Type::Prim(PrimType::I64),
            Exp::UnOp {
                op: ir::UnOp::Signum,
                ty: PrimType::I64,
                operand: distance.clone(),
            },
            span,
        );
        let step_sign = self.bind(
            block,
            "sgn",
            ir::Type::Prim(PrimType::I64),
            Exp::UnOp {
                op: ir::UnOp::Signum,
                ty: PrimType::I64,
                operand: s.clone(),
            },
            span,
        );
        // As the reference (and Futhark): `..<` needs a positive step and an
        // end not below the start, `..>` a negative step and an end not
        // above it, `...` a distance of 0 or one in the step's direction.
        let direction_ok = match end_kind {
            RangeEnd::Inclusive => {
                let empty_distance = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    distance.clone(),
                    i64c(0),
                    span,
                );
                let same_direction = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    distance_sign,
                    step_sign,
                    span,
                );
                self.binop(
                    block,
                    ir::BinOp::LogOr,
                    PrimType::Bool,
                    empty_distance,
                    same_direction,
                    span,
                )
            }
            RangeEnd::UpToExclusive | RangeEnd::DownToExclusive => {
                let direction = if end_kind == RangeEnd::UpToExclusive {
                    1
                } else {
                    -1
                };
                let step_ok = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    step_sign,
                    i64c(direction),
                    span,
                );
                let distance_ok = self.cmp(
                    block,
                    CmpOp::Ne,
                    PrimType::I64,
                    distance_sign,
                    i64c(-direction),
                    span,
                );
                self.binop(
                    block,
                    ir::BinOp::LogAnd,
                    PrimType::Bool,
                    step_ok,
                    distance_ok,
                    span,
                )
            }
        };
        let valid = self.binop(
            block,
            ir::BinOp::LogAnd,
            PrimType::Bool,
            nonzero_step,
            direction_ok,
            span,
        );
        // The reference's message: the start, the second element and the end,
        // in the range's element type.
        let second = match step {
            Some(second) => second,
            None => {
                let step_element = self.convert(block, s.clone(), element, span);
                self.binop(
                    block,
                    ir::BinOp::Add,
                    element,
                    start.clone(),
                    step_element,
                    span,
                )
            }
        };
        let symbol = match end_kind {
            RangeEnd::Inclusive => "...",
            RangeEnd::UpToExclusive => "..<",
            RangeEnd::DownToExclusive => "..>",
        };
        self.assert_with_values(
            block,
            valid,
            &format!("Range {{value}}..{{value}}{symbol}{{value}} is invalid."),
            vec![start.clone(), second, end_value],
            span,
        );
        let abs_distance = self.bind(
            block,
            "abs",
            ir::Type::Prim(PrimType::I64),
            Exp::UnOp {
                op: ir::UnOp::Abs,
                ty: PrimType::I64,
                operand: distance,
            },
            span,
        );
        let abs_step = self.bind(
            block,
            "abs",
            ir::Type::Prim(PrimType::I64),
            Exp::UnOp {
                op: ir::UnOp::Abs,
                ty: PrimType::I64,
                operand: s.clone(),
            },
            span,
        );
        let length = match end_kind {
            RangeEnd::Inclusive => {
                let q = self.binop(
                    block,
                    ir::BinOp::Quot,
                    PrimType::I64,
                    abs_distance,
                    abs_step,
                    span,
                );
                self.binop(block, ir::BinOp::Add, PrimType::I64, q, i64c(1), span)
            }
            _ => {
                let up = self.binop(
                    block,
                    ir::BinOp::Add,
                    PrimType::I64,
                    abs_distance,
                    abs_step.clone(),
                    span,
                );
                let up = self.binop(block, ir::BinOp::Sub, PrimType::I64, up, i64c(1), span);
                self.binop(block, ir::BinOp::Quot, PrimType::I64, up, abs_step, span)
            }
        };
        let step_element = self.convert(block, s, element, span);
        Ok(self.bind(
            block,
            "range",
            ir::Type::Array {
                element,
                shape: vec![length.clone()],
            },
            Exp::Iota {
                length,
                start,
                step: step_element,
                element,
            },
            span,
        ))
    }

    fn index(
        &mut self,
        env: &Env,
        block: &mut Block,
        arrays: Values,
        indices: &[core::DimIndex],
        span: Span,
    ) -> LowerResult<Values> {
        let mut slice = Vec::new();
        let mut all_fixed = true;
        let first_shape = arrays
            .first()
            .map(|a| self.type_of(a).shape().to_vec())
            .unwrap_or_default();
        for (k, index) in indices.iter().enumerate() {
            match index {
                core::DimIndex::Index(i) => {
                    let i = self.one(env, block, i)?;
                    slice.push(ir::DimIndex::Fix(self.convert(
                        block,
                        i,
                        PrimType::I64,
                        span,
                    )));
                }
                core::DimIndex::Slice { start, end, stride } => {
                    all_fixed = false;
                    let n = first_shape.get(k).cloned().unwrap_or(i64c(0));
                    let stride = match stride {
                        Some(s) => {
                            let s = self.one(env, block, s)?;
                            self.convert(block, s, PrimType::I64, span)
                        }
                        None => i64c(1),
                    };
                    // Defaults depend on the stride's sign: `xs[::-1]` runs
                    // from `n - 1` down to (excluding) `-1`.
                    let negative = self.cmp(
                        block,
                        CmpOp::Lt,
                        PrimType::I64,
                        stride.clone(),
                        i64c(0),
                        span,
                    );
                    let start = match start {
                        Some(s) => {
                            let s = self.one(env, block, s)?;
                            self.convert(block, s, PrimType::I64, span)
                        }
                        None => {
                            let last = self.binop(
                                block,
                                ir::BinOp::Sub,
                                PrimType::I64,
                                n.clone(),
                                i64c(1),
                                span,
                            );
                            self.select(block, negative.clone(), last, i64c(0), span)
                        }
                    };
                    let end = match end {
                        Some(s) => {
                            let s = self.one(env, block, s)?;
                            self.convert(block, s, PrimType::I64, span)
                        }
                        None => self.select(block, negative, i64c(-1), n, span),
                    };
                    // length = (end - start + stride - sign(stride)) / stride
                    let distance = self.binop(
                        block,
                        ir::BinOp::Sub,
                        PrimType::I64,
                        end,
                        start.clone(),
                        span,
                    );
                    let sign = self.bind(
                        block,
                        "sgn",
                        ir::Type::Prim(PrimType::I64),
                        Exp::UnOp {
                            op: ir::UnOp::Signum,
                            ty: PrimType::I64,
                            operand: stride.clone(),
                        },
                        span,
                    );
                    let adjust = self.binop(
                        block,
                        ir::BinOp::Sub,
                        PrimType::I64,
                        stride.clone(),
                        sign,
                        span,
                    );
                    let total =
                        self.binop(block, ir::BinOp::Add, PrimType::I64, distance, adjust, span);
                    let length = self.binop(
                        block,
                        ir::BinOp::Quot,
                        PrimType::I64,
                        total,
                        stride.clone(),
                        span,
                    );
                    // A negative length is the slice operation's own
                    // bounds error (`Index [i:j:s] out of bounds …`, the
                    // reference's message), raised before the slice exists.
                    slice.push(ir::DimIndex::Range {
                        start,
                        length,
                        stride,
                    });
                }
            }
        }
        let mut out = Vec::new();
        for array in arrays {
            let ty = self.type_of(&array);
            let Some(name) = array.as_var().cloned() else {
                return Err(internal(span, "indexing a constant"));
            };
            if all_fixed {
                let indices: Vec<SubExp> = slice
                    .iter()
                    .map(|d| match d {
                        ir::DimIndex::Fix(i) => i.clone(),
                        ir::DimIndex::Range { start, .. } => start.clone(),
                    })
                    .collect();
                let result = drop_dims(&ty, indices.len());
                out.push(self.bind(
                    block,
                    "elem",
                    result,
                    Exp::Index {
                        array: name,
                        indices,
                    },
                    span,
                ));
            } else {
                let mut shape = Vec::new();
                for d in &slice {
                    if let ir::DimIndex::Range { length, .. } = d {
                        shape.push(length.clone());
                    }
                }
                shape.extend(ty.shape()[slice.len()..].iter().cloned());
                out.push(self.bind(
                    block,
                    "slice",
                    leaf_type(ty.element(), shape),
                    Exp::Slice {
                        array: name,
                        slice: slice.clone(),
                    },
                    span,
                ));
            }
        }
        Ok(out)
    }
}

/// A printable base for a pattern's IR names.
fn pattern_base(pat: &core::Pat) -> String {
    match &pat.kind {
        PatKind::Var(name) => name.base.to_string(),
        _ => "p".to_string(),
    }
}

pub(crate) fn leaf_type(element: PrimType, shape: Vec<SubExp>) -> ir::Type {
    if shape.is_empty() {
        ir::Type::Prim(element)
    } else {
        ir::Type::Array { element, shape }
    }
}

pub(crate) fn drop_dims(ty: &ir::Type, count: usize) -> ir::Type {
    leaf_type(ty.element(), ty.shape()[count.min(ty.rank())..].to_vec())
}

fn instantiate(ty: &ExtType, names: &[VName]) -> ir::Type {
    match ty {
        ExtType::Prim(t) => ir::Type::Prim(*t),
        ExtType::Array { element, shape } => ir::Type::Array {
            element: *element,
            shape: shape
                .iter()
                .map(|d| match d {
                    ExtDim::Free(s) => s.clone(),
                    ExtDim::Existential(k) => SubExp::Var(names[*k].clone()),
                })
                .collect(),
        },
    }
}

pub(crate) fn zero_of(ty: PrimType) -> PrimValue {
    match ty {
        PrimType::I8 => PrimValue::I8(0),
        PrimType::I16 => PrimValue::I16(0),
        PrimType::I32 => PrimValue::I32(0),
        PrimType::I64 => PrimValue::I64(0),
        PrimType::U8 => PrimValue::U8(0),
        PrimType::U16 => PrimValue::U16(0),
        PrimType::U32 => PrimValue::U32(0),
        PrimType::U64 => PrimValue::U64(0),
        PrimType::F32 => PrimValue::F32(0.0),
        PrimType::F64 => PrimValue::F64(0.0),
        PrimType::Bool => PrimValue::Bool(false),
    }
}

/// The message of a failed size check of dimension `depth` of `what` (`the
/// value`, `the result`, a parameter's name) against `dim`: the reference's
/// wording (`TFP18 E-AssertErr` of its size checks, SPEC_NOTES TFP18-12).
fn size_mismatch(dim: &Size, depth: usize, what: &str) -> String {
    match dim {
        Size::Constant(c) => format!("Size mismatch: dimension {depth} of {what} is not {c}."),
        Size::Var(var) => format!(
            "Size mismatch: dimension {depth} of {what} does not have the size `{}` of its type.",
            var.base
        ),
        Size::Unknown => format!("Size mismatch: dimension {depth} of {what}."),
    }
}

/// For each leaf of `pat`'s type (in [`leaves`] order), what a failed size
/// check calls it and where: a variable by its name and its pattern's span,
/// anything else "the argument".
fn described_leaves(pat: &core::Pat) -> LowerResult<Vec<(String, Span)>> {
    let mut out = Vec::new();
    match &pat.kind {
        core::PatKind::Var(name) => {
            let count = leaves(&pat.ty, pat.span)?.len();
            out.extend(std::iter::repeat_n(
                (format!("`{}`", name.base), pat.span),
                count,
            ));
        }
        core::PatKind::Record(fields) => {
            // In the order of the record type's fields, as `leaves`.
            let in_type_order: std::collections::BTreeMap<_, _> =
                fields.iter().map(|(name, field)| (name, field)).collect();
            for field in in_type_order.values() {
                out.extend(described_leaves(field)?);
            }
        }
        _ => {
            let count = leaves(&pat.ty, pat.span)?.len();
            out.extend(std::iter::repeat_n(
                ("the argument".to_string(), pat.span),
                count,
            ));
        }
    }
    Ok(out)
}
