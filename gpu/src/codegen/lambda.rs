//! Translation of straight-line IR lambdas into the kernel library's GLSL
//! lambda conventions ([`MapLambda`]: reads `x0…`, assigns `y0…`;
//! [`Operator`]: reads `a0…`/`b0…`, assigns `r0…`, with neutral
//! expressions).
//!
//! The semantics are those of `optimized::cpu::prim` (Futhark's): integers
//! wrap; `Div`/`Mod` round towards negative infinity (the remainder has the
//! divisor's sign), `Quot`/`Rem` towards zero; shifts by at least the bit
//! width give 0 (−1 for `>>` of a negative number); float → integer
//! conversions truncate and saturate (NaN gives 0); `min`/`max` on floats
//! return the other operand when one is NaN; `round` is half-to-even.
//! An operation that fails on the CPU backend (an integer division by
//! zero, an integer power with a negative exponent, a false `Assert`) sets
//! the environment's status word and computes on with 0
//! ([`crate::kernels::environment`]); the driver then hands the statement
//! back to the host, which reports the error.
//!
//! Translated: `SubExp`, `BinOp`, `UnOp`, `CmpOp`, `ConvOp`, `Assert`,
//! `If` and `Loop` (`for` and `while`) with scalar results and parameters, over the lambda's parameters, its own locals,
//! constants and, in map lambdas and predicates, the scalars of the
//! enclosing scope the caller binds in the environment. Everything else
//! (array values, calls, free variables of an operator, neutral
//! elements that are variables, double-precision transcendental functions,
//! which GLSL lacks) is [`CodegenError::Unsupported`] naming the construct.

use super::CodegenError;
use crate::kernels::element::GlslElement;
use crate::kernels::element::KernelFeatures;
use crate::kernels::environment::{self, EnvironmentLayout};
use crate::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use optimized::ir::effects::binop_can_fail;
use optimized::ir::{
    BinOp, Body, CmpOp, Combination, ConvOp, Exp, Lambda, LoopForm, Param, PrimType, PrimValue,
    Soac, SubExp, Type, UnOp, VName,
};
use std::collections::{HashMap, HashSet};

/// The longest `iota` in a lambda a kernel folds itself (2^24 elements);
/// a longer one hands the statement back to the host, which builds it (or
/// refuses it past the memory limit).
pub const VIRTUAL_IOTA_LIMIT: i64 = 1 << 24;

/// What a SOAC's map lambda or predicate reads from the enclosing scope,
/// by name, in the environment's order ([`crate::kernels::environment`]):
/// scalars, and arrays of primitives (element type and rank) it indexes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    pub scalars: Vec<(VName, PrimType)>,
    pub arrays: Vec<(VName, PrimType, usize)>,
}

impl Environment {
    /// The environment's layout on the device.
    pub fn layout(&self) -> EnvironmentLayout {
        EnvironmentLayout {
            scalar_types: self.scalars.iter().map(|(_, t)| *t).collect(),
            array_types: self.arrays.iter().map(|(_, t, rank)| (*t, *rank)).collect(),
        }
    }
}

fn glsl_type(prim_type: PrimType) -> &'static str {
    prim_type.glsl_value_type()
}

fn bit_width(prim_type: PrimType) -> u32 {
    (prim_type.buffer_bytes() * 8) as u32
}

fn is_float(prim_type: PrimType) -> bool {
    matches!(prim_type, PrimType::F32 | PrimType::F64)
}

fn is_signed(prim_type: PrimType) -> bool {
    matches!(
        prim_type,
        PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64
    )
}

fn prim_name(prim_type: PrimType) -> &'static str {
    prim_type.name()
}

/// A constant as a GLSL expression of its type (floats bit-exact, NaN and
/// infinities included).
pub fn glsl_constant(value: PrimValue) -> String {
    match value {
        PrimValue::I8(x) => format!("int8_t({x})"),
        PrimValue::I16(x) => format!("int16_t({x})"),
        PrimValue::I32(x) => format!("int({}u)", x as u32),
        PrimValue::I64(x) => format!("int64_t({}ul)", x as u64),
        PrimValue::U8(x) => format!("uint8_t({x})"),
        PrimValue::U16(x) => format!("uint16_t({x})"),
        PrimValue::U32(x) => format!("{x}u"),
        PrimValue::U64(x) => format!("uint64_t({x}ul)"),
        PrimValue::F32(x) => format!("uintBitsToFloat({}u)", x.to_bits()),
        PrimValue::F64(x) => {
            let bits = x.to_bits();
            format!(
                "packDouble2x32(uvec2({}u, {}u))",
                bits & 0xFFFF_FFFF,
                bits >> 32
            )
        }
        PrimValue::Bool(x) => x.to_string(),
    }
}

/// An integer converted to an 8- or 16-bit integer type, the truncation
/// (and, to a signed type, the sign extension) done in 32-bit arithmetic so
/// that the narrow conversion only ever sees a value of its range. glslang
/// folds a narrowing conversion of a constant out of range, such as
/// `int16_t(uint16_t(55859))`, into a 16-bit `OpConstant` whose literal is
/// not sign-extended, which `spirv-val` and the validation layer reject
/// (gpu seed 100004, program 73273:
/// `tests/programs/soacs/narrow_integer_conversion_of_a_scalar.fut`).
fn narrow_integer(to: PrimType, x: &str) -> String {
    let target = glsl_type(to);
    let shift = 32 - bit_width(to);
    let wide = format!("{}({x})", if is_signed(to) { "int" } else { "uint" });
    format!("{target}(({wide} << {shift}) >> {shift})")
}

/// `precise ` for float locals: the CPU backend rounds every float
/// operation and conversion, so the device must not contract `a * b + c`
/// into a fused multiply-add nor fold a round trip such as
/// `i32.f32 (f32.i32 x)` into `x` (lavapipe did: the low bits of large
/// integers survived, `tests/programs/soacs/map_int_float_round_trip.fut`);
/// GLSL's `precise` forbids both.
fn precision_qualifier(prim_type: PrimType) -> &'static str {
    if is_float(prim_type) {
        "precise "
    } else {
        ""
    }
}

/// A float literal of `prim_type` (`f32`/`f64`) for an exactly representable
/// value printed by Rust.
fn float_literal(prim_type: PrimType, value: f64) -> String {
    match prim_type {
        PrimType::F64 => format!("{value:.1}lf"),
        _ => format!("{value:.1}"),
    }
}

/// `lambda` as a map lambda (or a filter's predicate): its parameters are
/// `x0…`, its results `y0…`; it may read the scalars and index the arrays
/// of `environment`. The device features of its temporaries and of the
/// environment's arrays are its [`MapLambda::body_features`], which every
/// kernel holding it declares (an `i8` temporary in a predicate over `i16`
/// needs 8-bit arithmetic: `tests/programs/soacs/filter_predicate_narrow_temporary.fut`;
/// an `i64` size read in a map over `f32` needs 64-bit integers).
pub fn map_lambda(lambda: &Lambda, environment: &Environment) -> Result<MapLambda, CodegenError> {
    let parameter_types = scalar_types(&lambda.params.iter().map(|p| &p.ty).collect::<Vec<_>>())?;
    let result_types = scalar_types(&lambda.return_types.iter().collect::<Vec<_>>())?;
    let mut translator = Translator::new("map", environment.layout());
    for (position, (name, prim_type)) in environment.scalars.iter().enumerate() {
        translator.bind_environment_scalar(name, *prim_type, position);
    }
    for (position, (name, _, rank)) in environment.arrays.iter().enumerate() {
        translator
            .environment_arrays
            .insert(name.clone(), (position, *rank));
    }
    for (position, param) in lambda.params.iter().enumerate() {
        translator.bind_parameter(
            &param.name,
            parameter_types[position],
            &format!("x{position}"),
        );
    }
    let results = translator.body(&lambda.body)?;
    for (position, result) in results.iter().enumerate() {
        translator.line(&format!("y{position} = {result};"));
    }
    // Booleans in registers need no feature (only their storage does).
    let body_types = translator
        .types_used
        .iter()
        .filter(|prim_type| **prim_type != PrimType::Bool)
        .chain(environment.arrays.iter().map(|(_, prim_type, _)| prim_type));
    Ok(MapLambda {
        parameter_types: parameter_types.to_vec(),
        result_types: result_types.to_vec(),
        helper_functions: translator.helper_text(),
        body: translator.text,
        body_features: KernelFeatures::for_element_types(body_types),
    })
}

/// `lambda` (`(a0…ak, b0…bk) -> r0…rk`) with `neutral` as an operator. A
/// lambda that is one known operator at one type becomes the library's
/// [`Operator::builtin`] (commutative, so reductions may use subgroup
/// operations); any other is an ordered, non-commutative operator. It reads
/// nothing of `environment` (its SOAC's), whose declarations it prints
/// where it may set the status word.
pub fn operator(
    lambda: &Lambda,
    neutral: &[SubExp],
    environment: &Environment,
) -> Result<Operator, CodegenError> {
    let component_count = lambda.return_types.len();
    if lambda.params.len() != 2 * component_count || neutral.len() != component_count {
        return Err(CodegenError::unsupported(format!(
            "an operator with {} parameters, {} results and {} neutral values",
            lambda.params.len(),
            component_count,
            neutral.len()
        )));
    }
    let element_types = scalar_types(&lambda.return_types.iter().collect::<Vec<_>>())?;
    let mut neutral_glsl = Vec::with_capacity(component_count);
    for value in neutral {
        match value {
            SubExp::Constant(constant) => neutral_glsl.push(glsl_constant(*constant)),
            SubExp::Var(name) => {
                return Err(CodegenError::unsupported(format!(
                    "the neutral element `{name}` is a variable (only constants are translated)"
                )))
            }
        }
    }
    if let Some(builtin) = builtin_operator_of(lambda) {
        if let Some(mut known) = Operator::builtin(builtin, element_types[0]) {
            known.neutral = neutral_glsl;
            return Ok(known);
        }
    }
    let mut translator = Translator::new("operator", environment.layout());
    for (position, param) in lambda.params.iter().enumerate() {
        let (prefix, component) = if position < component_count {
            ("a", position)
        } else {
            ("b", position - component_count)
        };
        let param_type = scalar_type(&param.ty)?;
        translator.bind_parameter(&param.name, param_type, &format!("{prefix}{component}"));
    }
    let results = translator.body(&lambda.body)?;
    for (position, result) in results.iter().enumerate() {
        translator.line(&format!("r{position} = {result};"));
    }
    translator.check_features(&element_types, &element_types)?;
    let mut translated = Operator::new(
        element_types.to_vec(),
        neutral_glsl,
        translator.text.clone(),
    );
    translated.helper_functions = translator.helper_text();
    Ok(translated)
}

/// The known operator a lambda `\a b -> a op b` is, at a type where the
/// library's definition agrees with Futhark's (integer and boolean `+ * & | ^
/// min max`, float `+ *`; float `min`/`max` differ on NaN, so they stay
/// user operators).
fn builtin_operator_of(lambda: &Lambda) -> Option<BuiltinOperator> {
    let [left, right] = lambda.params.as_slice() else {
        return None;
    };
    let [statement] = lambda.body.statements.as_slice() else {
        return None;
    };
    let [result] = lambda.body.result.as_slice() else {
        return None;
    };
    let Exp::BinOp {
        op,
        ty,
        left: SubExp::Var(l),
        right: SubExp::Var(r),
    } = &statement.expression
    else {
        return None;
    };
    if l != &left.name || r != &right.name || result.as_var() != Some(&statement.pattern[0].name) {
        return None;
    }
    let builtin = match (op, is_float(*ty), *ty == PrimType::Bool) {
        (BinOp::Add, _, false) => BuiltinOperator::Add,
        (BinOp::Mul, _, false) => BuiltinOperator::Multiply,
        (BinOp::Min, false, _) => BuiltinOperator::Minimum,
        (BinOp::Max, false, _) => BuiltinOperator::Maximum,
        (BinOp::And, false, _) | (BinOp::LogAnd, false, true) => BuiltinOperator::And,
        (BinOp::Or, false, _) | (BinOp::LogOr, false, true) => BuiltinOperator::Or,
        (BinOp::Xor, false, _) => BuiltinOperator::Xor,
        _ => return None,
    };
    Some(builtin)
}

fn scalar_type(ty: &Type) -> Result<PrimType, CodegenError> {
    match ty {
        Type::Prim(prim_type) => Ok(*prim_type),
        Type::Array { .. } => Err(CodegenError::unsupported(format!(
            "an array value (of rank {}) in a lambda",
            ty.rank()
        ))),
    }
}

fn scalar_types(types: &[&Type]) -> Result<Vec<PrimType>, CodegenError> {
    types.iter().map(|ty| scalar_type(ty)).collect()
}

/// Translates one lambda's statements into GLSL statements.
struct Translator {
    /// The prefix of helper function names (a map lambda and an operator
    /// share one kernel).
    helper_prefix: &'static str,
    text: String,
    /// Helper functions (name, definition) in the order they were needed
    /// (a helper's own helpers come before it).
    helpers: Vec<(String, String)>,
    /// Every variable in scope: its GLSL expression and type.
    scope: HashMap<VName, (String, PrimType)>,
    /// Every type a value of the lambda has.
    types_used: Vec<PrimType>,
    /// The environment of the lambda's SOAC.
    environment_layout: EnvironmentLayout,
    /// The variables of the scope that are environment scalars.
    environment_names: HashSet<VName>,
    /// The environment's arrays, by name: their positions and ranks.
    environment_arrays: HashMap<VName, (usize, usize)>,
    /// The `iota`s bound in the lambda: start, step and element type.
    virtual_arrays: HashMap<VName, (String, String, PrimType)>,
    /// Whether the lambda reads the environment or may set its status.
    uses_environment: bool,
}

impl Translator {
    fn new(helper_prefix: &'static str, environment_layout: EnvironmentLayout) -> Translator {
        Translator {
            helper_prefix,
            text: String::new(),
            helpers: Vec::new(),
            scope: HashMap::new(),
            types_used: Vec::new(),
            environment_layout,
            environment_names: HashSet::new(),
            environment_arrays: HashMap::new(),
            virtual_arrays: HashMap::new(),
            uses_environment: false,
        }
    }

    fn line(&mut self, statement: &str) {
        if !self.text.is_empty() {
            self.text.push_str("\n    ");
        }
        self.text.push_str(statement);
    }

    /// The helper functions, after the environment's declarations where
    /// the lambda uses it.
    fn helper_text(&self) -> String {
        let mut text = if self.uses_environment {
            self.environment_layout.glsl_declarations()
        } else {
            String::new()
        };
        text.extend(self.helpers.iter().map(|(_, helper)| helper.as_str()));
        text
    }

    /// Scalar `position` of the environment, bound to `name`.
    fn bind_environment_scalar(&mut self, name: &VName, prim_type: PrimType, position: usize) {
        self.bind_parameter(
            name,
            prim_type,
            &format!("({})", environment::scalar_expression(position, prim_type)),
        );
        self.environment_names.insert(name.clone());
    }

    /// Element `indices` (`i64` GLSL expressions, one per dimension) of
    /// environment array `position`: a bounds check that sets the status
    /// word, then the element where in bounds (0 elsewhere: an index out of
    /// bounds never reads the buffer).
    fn environment_element(
        &mut self,
        position: usize,
        indices: &[String],
        element_type: PrimType,
    ) -> String {
        self.note_type(PrimType::I64);
        let mut conditions = Vec::with_capacity(indices.len());
        let mut flat = String::new();
        for (dimension, index) in indices.iter().enumerate() {
            let size = self
                .environment_layout
                .array_dimension_expression(position, dimension);
            conditions.push(format!("({index} >= int64_t(0) && {index} < {size})"));
            flat = if dimension == 0 {
                format!("({index})")
            } else {
                format!("({flat} * {size} + {index})")
            };
        }
        let in_bounds = format!("({})", conditions.join(" && "));
        self.fail_where(&format!("!{in_bounds}"));
        let element = self
            .environment_layout
            .array_element_expression(position, &flat);
        let zero = match element_type {
            PrimType::Bool => "false".to_owned(),
            other => format!("{}(0)", glsl_type(other)),
        };
        format!("({in_bounds} ? {element} : {zero})")
    }

    /// `name`, a GLSL local of `prim_type` (`precise` for floats), holding
    /// `value`.
    fn declare(&mut self, name: &str, prim_type: PrimType, value: &str) {
        self.line(&format!(
            "{}{} {name} = {value};",
            precision_qualifier(prim_type),
            glsl_type(prim_type)
        ));
    }

    /// A statement that sets the status word where `failure` holds.
    fn fail_where(&mut self, failure: &str) {
        self.uses_environment = true;
        self.line(&format!(
            "if ({failure}) {{ {} }}",
            environment::FAIL_STATEMENT
        ));
    }

    fn note_type(&mut self, prim_type: PrimType) {
        if !self.types_used.contains(&prim_type) {
            self.types_used.push(prim_type);
        }
    }

    fn bind_parameter(&mut self, name: &VName, prim_type: PrimType, glsl_name: &str) {
        self.note_type(prim_type);
        self.scope
            .insert(name.clone(), (glsl_name.to_owned(), prim_type));
    }

    /// The kernels holding an operator declare the device features of its
    /// element types only; an operator whose intermediate values need more
    /// is refused.
    fn check_features(
        &self,
        parameter_types: &[PrimType],
        result_types: &[PrimType],
    ) -> Result<(), CodegenError> {
        let declared: Vec<PrimType> = parameter_types
            .iter()
            .chain(result_types)
            .copied()
            .collect();
        let declared_features = KernelFeatures::for_element_types(&declared);
        // Booleans in registers need no feature (only their storage does).
        for prim_type in self.types_used.iter().filter(|t| **t != PrimType::Bool) {
            let needed = KernelFeatures::for_element_type(*prim_type);
            if declared_features.union(needed) != declared_features {
                return Err(CodegenError::unsupported(format!(
                    "an intermediate {} value in a lambda over ({}) (the kernel would need a \
                     device feature its element types do not declare)",
                    prim_name(*prim_type),
                    declared
                        .iter()
                        .map(|t| t.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        Ok(())
    }

    /// A constant's type counts among the lambda's types (a `u8` closure
    /// tag in a lambda over `i32` needs 8-bit arithmetic:
    /// `tests/programs/or_conditionals/map_closure_tag_narrow_constant.fut`).
    fn operand(&mut self, value: &SubExp) -> Result<(String, PrimType), CodegenError> {
        match value {
            SubExp::Constant(constant) => {
                self.note_type(constant.prim_type());
                Ok((glsl_constant(*constant), constant.prim_type()))
            }
            SubExp::Var(name) => {
                if self.environment_names.contains(name) {
                    self.uses_environment = true;
                }
                self.scope.get(name).cloned().ok_or_else(|| {
                    CodegenError::unsupported(format!(
                    "the variable `{name}` of the enclosing scope (only map lambdas and predicates \
                     read scalars of the enclosing scope)"
                ))
                })
            }
        }
    }

    /// Translates the statements of `body`; returns its results as GLSL
    /// expressions.
    fn body(&mut self, body: &Body) -> Result<Vec<String>, CodegenError> {
        for statement in &body.statements {
            // `iota` in a lambda is never stored: an inner SOAC over it
            // reads its elements as `start + i * step`.
            if let (
                Exp::Iota {
                    length,
                    start,
                    step,
                    element,
                },
                [array],
            ) = (&statement.expression, statement.pattern.as_slice())
            {
                // The host would build the array: a negative length fails
                // there, and one past what it could allocate fails past the
                // memory limit. The kernel hands back every `iota` longer
                // than [`VIRTUAL_IOTA_LIMIT`] so the host decides
                // (`tests/programs/kernels/inner_reduction_over_a_huge_iota.fut`).
                let (length, _) = self.operand(length)?;
                self.note_type(PrimType::I64);
                self.fail_where(&format!(
                    "{length} < int64_t(0) || {length} > int64_t({VIRTUAL_IOTA_LIMIT})"
                ));
                let (start, _) = self.operand(start)?;
                let (step, _) = self.operand(step)?;
                self.note_type(*element);
                self.virtual_arrays
                    .insert(array.name.clone(), (start, step, *element));
                continue;
            }
            let mut pattern = Vec::with_capacity(statement.pattern.len());
            for element in &statement.pattern {
                let prim_type = scalar_type(&element.ty)?;
                self.note_type(prim_type);
                pattern.push((format!("v{}", element.name.number), prim_type));
            }
            match &statement.expression {
                Exp::Assert { condition, .. } => {
                    let (condition, _) = self.operand(condition)?;
                    self.fail_where(&format!("!{condition}"));
                }
                Exp::If {
                    condition,
                    then_body,
                    else_body,
                    ..
                } => {
                    let (condition, _) = self.operand(condition)?;
                    for (name, prim_type) in &pattern {
                        self.line(&format!(
                            "{}{} {name};",
                            precision_qualifier(*prim_type),
                            glsl_type(*prim_type)
                        ));
                    }
                    self.line(&format!("if ({condition}) {{"));
                    self.branch(then_body, &pattern)?;
                    self.line("} else {");
                    self.branch(else_body, &pattern)?;
                    self.line("}");
                }
                Exp::Loop {
                    params,
                    form,
                    body: loop_body,
                } => self.sequential_loop(params, form, loop_body, &pattern)?,
                Exp::Soac(soac @ (Soac::Redomap { .. } | Soac::Reduce { .. })) => {
                    match soac.combination() {
                        Some(reduction) => self.sequential_reduction(reduction, &pattern)?,
                        None => unreachable!("a reduce or redomap is a combination"),
                    }
                }
                expression => {
                    let [(name, prim_type)] = pattern.as_slice() else {
                        return Err(CodegenError::unsupported(format!(
                            "{} binding {} values",
                            expression_name(expression),
                            pattern.len()
                        )));
                    };
                    let value = self.expression(expression, *prim_type)?;
                    self.declare(name, *prim_type, &value);
                }
            }
            for (element, (glsl_name, prim_type)) in statement.pattern.iter().zip(pattern) {
                self.scope
                    .insert(element.name.clone(), (glsl_name, prim_type));
            }
        }
        body.result
            .iter()
            .map(|result| self.operand(result).map(|(text, _)| text))
            .collect()
    }

    /// A `loop` over scalar parameters as a GLSL `for` or `while` loop: the
    /// parameters are variables initialised before it, each iteration
    /// computes the body's results into temporaries and then assigns them
    /// (a result may read any parameter), and the pattern's variables take
    /// the parameters' last values.
    fn sequential_loop(
        &mut self,
        params: &[(Param, SubExp)],
        form: &LoopForm,
        loop_body: &Body,
        pattern: &[(String, PrimType)],
    ) -> Result<(), CodegenError> {
        let mut variables = Vec::with_capacity(params.len());
        for (param, initial) in params {
            let prim_type = scalar_type(&param.ty)?;
            self.note_type(prim_type);
            let (initial, _) = self.operand(initial)?;
            let name = format!("v{}", param.name.number);
            self.declare(&name, prim_type, &initial);
            self.scope
                .insert(param.name.clone(), (name.clone(), prim_type));
            variables.push((name, prim_type));
        }
        match form {
            LoopForm::For { index, bound } => {
                let (bound, bound_type) = self.operand(bound)?;
                let t = glsl_type(bound_type);
                let name = format!("v{}", index.number);
                self.scope.insert(index.clone(), (name.clone(), bound_type));
                self.line(&format!(
                    "for ({t} {name} = {t}(0); {name} < {bound}; {name} = {t}({name} + {t}(1))) {{"
                ));
            }
            LoopForm::While { condition_param } => {
                let (condition, _) = self.operand(&SubExp::Var(condition_param.clone()))?;
                self.line(&format!("while ({condition}) {{"));
            }
        }
        let results = self.body(loop_body)?;
        for ((name, prim_type), result) in variables.iter().zip(&results) {
            self.declare(&format!("next_{name}"), *prim_type, result);
        }
        for (name, _) in &variables {
            self.line(&format!("{name} = next_{name};"));
        }
        self.line("}");
        for ((pattern_name, prim_type), (name, _)) in pattern.iter().zip(&variables) {
            self.declare(pattern_name, *prim_type, name);
        }
        Ok(())
    }

    /// An inner `reduce`/`redomap` (of scalar results) as a sequential loop
    /// over its width: each iteration binds the map lambda's parameters to
    /// the inputs' elements (of an `iota` in the lambda or of environment
    /// arrays, bounds checked), runs the map lambda (none for `reduce`: the
    /// elements are the values) and folds its results into accumulators
    /// with the operator, left to right from the neutral element, as the
    /// CPU backend does; the pattern's variables take the accumulators.
    fn sequential_reduction(
        &mut self,
        reduction: Combination<'_>,
        pattern: &[(String, PrimType)],
    ) -> Result<(), CodegenError> {
        let Combination {
            width,
            map_lambda,
            operator,
            neutral,
            arrays,
            ..
        } = reduction;
        let (width, _) = self.operand(width)?;
        let mut accumulators = Vec::with_capacity(pattern.len());
        for ((name, prim_type), initial) in pattern.iter().zip(neutral) {
            let (initial, _) = self.operand(initial)?;
            let accumulator = format!("{name}_accumulator");
            self.declare(&accumulator, *prim_type, &initial);
            accumulators.push((accumulator, *prim_type));
        }
        if accumulators.len() != pattern.len() || operator.params.len() != 2 * pattern.len() {
            return Err(CodegenError::unsupported(
                "an inner reduction whose operator does not match its results",
            ));
        }
        let counter = format!("{}_index", pattern.first().map_or("v", |(n, _)| n.as_str()));
        self.note_type(PrimType::I64);
        self.line(&format!(
            "for (int64_t {counter} = int64_t(0); {counter} < {width}; {counter} = {counter} + int64_t(1)) {{"
        ));
        let mut elements = Vec::with_capacity(arrays.len());
        for array in arrays {
            elements.push(self.inner_element(array, &counter)?);
        }
        let values: Vec<(String, PrimType)> = match map_lambda {
            Some(lambda) => {
                for (param, (element, element_type)) in lambda.params.iter().zip(&elements) {
                    self.bind_local(&param.name, *element_type, element);
                }
                let results = self.body(&lambda.body)?;
                results
                    .into_iter()
                    .zip(pattern.iter().map(|(_, t)| *t))
                    .collect()
            }
            None => elements,
        };
        let component_count = pattern.len();
        for (position, param) in operator.params.iter().enumerate() {
            let (value, prim_type) = if position < component_count {
                let (accumulator, prim_type) = &accumulators[position];
                (accumulator.clone(), *prim_type)
            } else {
                values[position - component_count].clone()
            };
            self.bind_local(&param.name, prim_type, &value);
        }
        let combined = self.body(&operator.body)?;
        for ((accumulator, _), value) in accumulators.iter().zip(&combined) {
            self.line(&format!("{accumulator} = {value};"));
        }
        self.line("}");
        for ((name, prim_type), (accumulator, _)) in pattern.iter().zip(&accumulators) {
            self.declare(name, *prim_type, accumulator);
        }
        Ok(())
    }

    /// Element `counter` (an `i64` GLSL variable) of an inner SOAC's input:
    /// an `iota` of the lambda or an environment array of rank 1.
    fn inner_element(
        &mut self,
        array: &VName,
        counter: &str,
    ) -> Result<(String, PrimType), CodegenError> {
        if let Some((start, step, element)) = self.virtual_arrays.get(array).cloned() {
            let t = glsl_type(element);
            return Ok((format!("{t}({start} + {t}({counter}) * {step})"), element));
        }
        match self.environment_arrays.get(array).copied() {
            Some((position, 1)) => {
                let element = self.environment_layout.array_types[position].0;
                let value = self.environment_element(position, &[counter.to_owned()], element);
                Ok((value, element))
            }
            _ => Err(CodegenError::unsupported(format!(
                "an inner SOAC over `{array}` (only over an `iota` of the lambda or an array of \
                 rank 1 of the enclosing scope)"
            ))),
        }
    }

    /// `name`, of `prim_type`, a local variable holding `value`.
    fn bind_local(&mut self, name: &VName, prim_type: PrimType, value: &str) {
        let local = format!("v{}", name.number);
        self.note_type(prim_type);
        self.declare(&local, prim_type, value);
        self.scope.insert(name.clone(), (local, prim_type));
    }

    /// A branch of an `if`: its statements, then assignments to the
    /// pattern's variables.
    fn branch(&mut self, body: &Body, pattern: &[(String, PrimType)]) -> Result<(), CodegenError> {
        let results = self.body(body)?;
        for ((name, _), result) in pattern.iter().zip(results) {
            self.line(&format!("{name} = {result};"));
        }
        Ok(())
    }

    fn expression(
        &mut self,
        expression: &Exp,
        result_type: PrimType,
    ) -> Result<String, CodegenError> {
        match expression {
            Exp::SubExp(value) => Ok(self.operand(value)?.0),
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                let can_fail = binop_can_fail(*op, *ty, right);
                let (left, _) = self.operand(left)?;
                let (right, _) = self.operand(right)?;
                if can_fail {
                    let zero = format!("{}(0)", glsl_type(*ty));
                    match op {
                        BinOp::Pow => self.fail_where(&format!("{right} < {zero}")),
                        _ => self.fail_where(&format!("{right} == {zero}")),
                    }
                }
                self.binop(*op, *ty, &left, &right)
            }
            Exp::UnOp { op, ty, operand } => {
                let (operand, _) = self.operand(operand)?;
                self.unop(*op, *ty, &operand)
            }
            // Not GLSL's `fma`: Vulkan gives it the precision of a
            // multiplication followed by an addition, and lavapipe rounds
            // twice even where a `precise` local consumes it (every float
            // local is one); the SOAC stays on the host, where `fma` rounds
            // once (SPEC_NOTES TFP18-31).
            Exp::Fma { .. } => Err(CodegenError::unsupported(
                "fma (Vulkan does not promise a single rounding)".to_owned(),
            )),
            Exp::CmpOp {
                op,
                ty,
                left,
                right,
            } => {
                let (left, _) = self.operand(left)?;
                let (right, _) = self.operand(right)?;
                Ok(compare(*op, *ty, &left, &right))
            }
            Exp::Index { array, indices } if self.environment_arrays.contains_key(array) => {
                let (position, rank) = self.environment_arrays[array];
                if indices.len() != rank {
                    return Err(CodegenError::unsupported(format!(
                        "{} indices into the array `{array}` of rank {rank} (a slice)",
                        indices.len()
                    )));
                }
                let mut index_texts = Vec::with_capacity(rank);
                for index in indices {
                    index_texts.push(self.operand(index)?.0);
                }
                Ok(self.environment_element(position, &index_texts, result_type))
            }
            Exp::ConvOp { op, operand } => {
                let (operand, _) = self.operand(operand)?;
                self.note_type(op.from);
                Ok(self.convert(*op, &operand))
            }
            other => {
                let _ = result_type;
                Err(CodegenError::unsupported(format!(
                    "{} in a lambda",
                    expression_name(other)
                )))
            }
        }
    }

    /// Registers a helper function `{prefix}_{name}` (once) and returns its
    /// name.
    fn helper(&mut self, name: &str, definition: impl FnOnce(&str) -> String) -> String {
        let full_name = format!("{}_{name}", self.helper_prefix);
        if !self.helpers.iter().any(|(name, _)| name == &full_name) {
            let text = definition(&full_name);
            self.helpers.push((full_name.clone(), text));
        }
        full_name
    }

    fn binop(
        &mut self,
        op: BinOp,
        ty: PrimType,
        left: &str,
        right: &str,
    ) -> Result<String, CodegenError> {
        let t = glsl_type(ty);
        let type_name = prim_name(ty);
        if ty == PrimType::Bool {
            return match op {
                BinOp::And | BinOp::LogAnd | BinOp::Min => Ok(format!("({left} && {right})")),
                BinOp::Or | BinOp::LogOr | BinOp::Max => Ok(format!("({left} || {right})")),
                BinOp::Xor => Ok(format!("({left} ^^ {right})")),
                _ => Err(CodegenError::unsupported(format!("{op:?} on bool"))),
            };
        }
        if is_float(ty) {
            let double = ty == PrimType::F64;
            return match op {
                BinOp::Add => Ok(format!("({left} + {right})")),
                BinOp::Sub => Ok(format!("({left} - {right})")),
                BinOp::Mul => Ok(format!("({left} * {right})")),
                BinOp::Div => Ok(format!("({left} / {right})")),
                BinOp::Quot => Ok(format!("trunc({left} / {right})")),
                BinOp::Rem => {
                    let name = self.helper(&format!("rem_{type_name}"), |name| {
                        format!("{t} {name}({t} a, {t} b) {{ return a - b * trunc(a / b); }}\n")
                    });
                    Ok(format!("{name}({left}, {right})"))
                }
                BinOp::Mod => {
                    let name = self.helper(&format!("mod_{type_name}"), |name| {
                        format!(
                            "{t} {name}({t} a, {t} b) {{ {t} r = a - b * trunc(a / b); \
                             return (r != {t}(0) && ((r < {t}(0)) != (b < {t}(0)))) ? r + b : r; }}\n"
                        )
                    });
                    Ok(format!("{name}({left}, {right})"))
                }
                BinOp::Min | BinOp::Max => {
                    let (short, comparison) = if op == BinOp::Min {
                        ("min", "<")
                    } else {
                        ("max", ">")
                    };
                    let name = self.helper(&format!("{short}_{type_name}"), |name| {
                        format!(
                            "{t} {name}({t} a, {t} b) {{ return isnan(a) ? b : (isnan(b) ? a : \
                             (a {comparison} b ? a : b)); }}\n"
                        )
                    });
                    Ok(format!("{name}({left}, {right})"))
                }
                BinOp::Pow if !double => Ok(format!("pow({left}, {right})")),
                BinOp::Atan2 if !double => Ok(format!("atan({left}, {right})")),
                BinOp::Pow | BinOp::Atan2 => Err(CodegenError::unsupported(format!(
                    "{op:?} on f64 (GLSL has no double-precision transcendental functions)"
                ))),
                _ => Err(CodegenError::unsupported(format!("{op:?} on {type_name}"))),
            };
        }
        let signed = is_signed(ty);
        let bits = bit_width(ty);
        if bits < 32 {
            return self.narrow_binop(op, ty, left, right);
        }
        let zero = format!("{t}(0)");
        Ok(match op {
            BinOp::Add => format!("{t}({left} + {right})"),
            BinOp::Sub => format!("{t}({left} - {right})"),
            BinOp::Mul => format!("{t}({left} * {right})"),
            BinOp::And => format!("{t}({left} & {right})"),
            BinOp::Or => format!("{t}({left} | {right})"),
            BinOp::Xor => format!("{t}({left} ^ {right})"),
            BinOp::Min => format!("({left} < {right} ? {left} : {right})"),
            BinOp::Max => format!("({left} < {right} ? {right} : {left})"),
            BinOp::Quot | BinOp::Rem | BinOp::Div | BinOp::Mod => {
                // Truncating quotient without overflow (MIN / -1 wraps to
                // MIN) and 0 for a zero divisor.
                let quot = self.helper(&format!("quot_{type_name}"), |name| {
                    if signed {
                        // Through the magnitudes' unsigned quotient: NVIDIA's
                        // signed 64-bit division by a negative constant gave
                        // a remainder off by one (H200, codegen_soac's
                        // map_i64_with_wrapping_power_and_division: i64
                        // `x % -7` was -5 where the CPU gives -4).
                        let unsigned_type = glsl_type(unsigned_counterpart(ty));
                        format!(
                            "{t} {name}({t} a, {t} b) {{ if (b == {zero}) return {zero}; \
                             if (b == {t}(-1)) return {t}({zero} - a); \
                             {unsigned_type} ua = a < {zero} ? {unsigned_type}({unsigned_type}(0) - {unsigned_type}(a)) : {unsigned_type}(a); \
                             {unsigned_type} ub = b < {zero} ? {unsigned_type}({unsigned_type}(0) - {unsigned_type}(b)) : {unsigned_type}(b); \
                             {unsigned_type} uq = {unsigned_type}(ua / ub); \
                             return ((a < {zero}) != (b < {zero})) ? {t}({unsigned_type}(0) - uq) : {t}(uq); }}\n"
                        )
                    } else {
                        format!(
                            "{t} {name}({t} a, {t} b) {{ if (b == {zero}) return {zero}; \
                             return {t}(a / b); }}\n"
                        )
                    }
                });
                let remainder = format!("{t}({left} - {t}({quot}({left}, {right}) * {right}))");
                match op {
                    BinOp::Quot => format!("{quot}({left}, {right})"),
                    BinOp::Rem => remainder,
                    BinOp::Div if signed => {
                        let name = self.helper(&format!("div_{type_name}"), |name| {
                            format!(
                                "{t} {name}({t} a, {t} b) {{ {t} q = {quot}(a, b); \
                                 {t} r = {t}(a - {t}(q * b)); \
                                 return (r != {zero} && ((a < {zero}) != (b < {zero}))) ? {t}(q - {t}(1)) : q; }}\n"
                            )
                        });
                        format!("{name}({left}, {right})")
                    }
                    BinOp::Mod if signed => {
                        let name = self.helper(&format!("mod_{type_name}"), |name| {
                            format!(
                                "{t} {name}({t} a, {t} b) {{ {t} r = {t}(a - {t}({quot}(a, b) * b)); \
                                 return (r != {zero} && ((r < {zero}) != (b < {zero}))) ? {t}(r + b) : r; }}\n"
                            )
                        });
                        format!("{name}({left}, {right})")
                    }
                    BinOp::Div => format!("{quot}({left}, {right})"),
                    _ => remainder,
                }
            }
            BinOp::Pow => {
                let name = self.helper(&format!("pow_{type_name}"), |name| {
                    format!(
                        "{t} {name}({t} a, {t} b) {{ if (b < {zero}) return {zero}; \
                         {t} result = {t}(1); {t} base = a; {t} exponent = b; \
                         while (exponent > {zero}) {{ if ((exponent & {t}(1)) == {t}(1)) result = {t}(result * base); \
                         base = {t}(base * base); exponent = {t}(exponent >> {t}(1)); }} return result; }}\n"
                    )
                });
                format!("{name}({left}, {right})")
            }
            BinOp::Shl | BinOp::Shr | BinOp::UShr => {
                let out_of_range = if signed {
                    format!("({right} < {zero} || {right} >= {t}({bits}))")
                } else {
                    format!("({right} >= {t}({bits}))")
                };
                let unsigned_type = glsl_type(unsigned_counterpart(ty));
                match op {
                    BinOp::Shl => format!("({out_of_range} ? {zero} : {t}({left} << {right}))"),
                    BinOp::Shr if signed => format!(
                        "({out_of_range} ? ({left} < {zero} ? {t}(-1) : {zero}) : {t}({left} >> {right}))"
                    ),
                    BinOp::Shr => format!("({out_of_range} ? {zero} : {t}({left} >> {right}))"),
                    _ => format!(
                        "({out_of_range} ? {zero} : {t}({unsigned_type}({left}) >> {unsigned_type}({right})))"
                    ),
                }
            }
            BinOp::MulHi if bits == 32 => {
                let extended = if signed {
                    "imulExtended"
                } else {
                    "umulExtended"
                };
                let name = self.helper(&format!("mul_hi_{type_name}"), |name| {
                    format!(
                        "{t} {name}({t} a, {t} b) {{ {t} high; {t} low; \
                         {extended}(a, b, high, low); return high; }}\n"
                    )
                });
                format!("{name}({left}, {right})")
            }
            BinOp::MulHi | BinOp::Atan2 | BinOp::LogAnd | BinOp::LogOr => {
                return Err(CodegenError::unsupported(format!("{op:?} on {type_name}")))
            }
        })
    }

    /// An operation on an 8- or 16-bit integer type, computed in the 32-bit
    /// type of its signedness on the operands' (sign- or zero-extended)
    /// values and wrapped to its width by [`narrow_integer`], so no
    /// narrow-typed arithmetic result can be out of its range. SPIR-V
    /// defines narrow arithmetic to wrap, but NVIDIA's driver (580.159, an
    /// H100) kept `i8.neg (-128)` and `a + a` unwrapped in a 32-bit
    /// register, so a later division or comparison saw 128 (gpu seed
    /// 100004, programs 4911, 10961, 12349:
    /// `tests/programs/soacs/narrow_integer_wrapping.fut`); lavapipe wraps.
    fn narrow_binop(
        &mut self,
        op: BinOp,
        ty: PrimType,
        left: &str,
        right: &str,
    ) -> Result<String, CodegenError> {
        let t = glsl_type(ty);
        let signed = is_signed(ty);
        let bits = bit_width(ty);
        let wide_type = if signed { PrimType::I32 } else { PrimType::U32 };
        let wide = glsl_type(wide_type);
        let zero = format!("{t}(0)");
        let out_of_range = if signed {
            format!("({right} < {zero} || {right} >= {t}({bits}))")
        } else {
            format!("({right} >= {t}({bits}))")
        };
        Ok(match op {
            BinOp::Min => format!("({left} < {right} ? {left} : {right})"),
            BinOp::Max => format!("({left} < {right} ? {right} : {left})"),
            BinOp::Shl => format!(
                "({out_of_range} ? {zero} : {})",
                narrow_integer(ty, &format!("{wide}({left}) << {wide}({right})"))
            ),
            BinOp::Shr if signed => format!(
                "({out_of_range} ? ({left} < {zero} ? {t}(-1) : {zero}) : {})",
                narrow_integer(ty, &format!("{wide}({left}) >> {wide}({right})"))
            ),
            // The exact product of two 8- or 16-bit values fits in 32 bits.
            BinOp::MulHi => {
                narrow_integer(ty, &format!("({wide}({left}) * {wide}({right})) >> {bits}"))
            }
            BinOp::Shr | BinOp::UShr => {
                // The bits of the narrow value alone, shifted as unsigned.
                let mask = (1u64 << bits) - 1;
                format!(
                    "({out_of_range} ? {zero} : {})",
                    narrow_integer(
                        ty,
                        &format!("(uint({wide}({left})) & {mask}u) >> uint({right})")
                    )
                )
            }
            _ => {
                let result = self.binop(
                    op,
                    wide_type,
                    &format!("{wide}({left})"),
                    &format!("{wide}({right})"),
                )?;
                narrow_integer(ty, &result)
            }
        })
    }

    fn unop(&mut self, op: UnOp, ty: PrimType, operand: &str) -> Result<String, CodegenError> {
        let t = glsl_type(ty);
        let type_name = prim_name(ty);
        let x = operand;
        if ty == PrimType::Bool {
            return match op {
                UnOp::Not => Ok(format!("(!{x})")),
                _ => Err(CodegenError::unsupported(format!("{op:?} on bool"))),
            };
        }
        if is_float(ty) {
            let double = ty == PrimType::F64;
            let simple = |function: &str| Ok(format!("{function}({x})"));
            return match op {
                UnOp::Neg => Ok(format!("(-{x})")),
                UnOp::Abs => simple("abs"),
                UnOp::Signum => Ok(format!(
                    "({x} > {t}(0) ? {t}(1) : ({x} < {t}(0) ? {t}(-1) : {x}))"
                )),
                UnOp::Sqrt => simple("sqrt"),
                UnOp::Floor => simple("floor"),
                UnOp::Ceil => simple("ceil"),
                UnOp::Round => simple("roundEven"),
                UnOp::Trunc => simple("trunc"),
                UnOp::IsNan => simple("isnan"),
                UnOp::IsInf => simple("isinf"),
                UnOp::ToBits if !double => simple("floatBitsToUint"),
                UnOp::ToBits => {
                    let name = self.helper("to_bits_f64", |name| {
                        format!(
                            "uint64_t {name}(double x) {{ uvec2 halves = unpackDouble2x32(x); \
                             return (uint64_t(halves.y) << 32) | uint64_t(halves.x); }}\n"
                        )
                    });
                    Ok(format!("{name}({x})"))
                }
                UnOp::Not
                | UnOp::Popc
                | UnOp::Clz
                | UnOp::Ctz
                | UnOp::FromBits
                | UnOp::Cbrt
                | UnOp::Log1p
                | UnOp::Gamma
                | UnOp::Lgamma
                | UnOp::Erf
                | UnOp::Erfc => Err(CodegenError::unsupported(format!("{op:?} on {type_name}"))),
                _ if double => Err(CodegenError::unsupported(format!(
                    "{op:?} on f64 (GLSL has no double-precision transcendental functions)"
                ))),
                UnOp::Exp => simple("exp"),
                UnOp::Log => simple("log"),
                UnOp::Log2 => simple("log2"),
                UnOp::Log10 => Ok(format!("(log2({x}) * 0.30102999566398120)")),
                UnOp::Sin => simple("sin"),
                UnOp::Cos => simple("cos"),
                UnOp::Tan => simple("tan"),
                UnOp::Asin => simple("asin"),
                UnOp::Acos => simple("acos"),
                UnOp::Atan => simple("atan"),
                UnOp::Sinh => simple("sinh"),
                UnOp::Cosh => simple("cosh"),
                UnOp::Tanh => simple("tanh"),
                UnOp::Asinh => simple("asinh"),
                UnOp::Acosh => simple("acosh"),
                UnOp::Atanh => simple("atanh"),
            };
        }
        if op == UnOp::FromBits && ty == PrimType::U32 {
            return Ok(format!("uintBitsToFloat({x})"));
        }
        let zero = format!("{t}(0)");
        let signed = is_signed(ty);
        let thirty_two_bits = bit_width(ty) == 32;
        if bit_width(ty) < 32 && matches!(op, UnOp::Neg | UnOp::Not | UnOp::Abs) {
            // Computed in 32 bits and wrapped, as `narrow_binop` does.
            let wide_type = if signed { PrimType::I32 } else { PrimType::U32 };
            let result = self.unop(op, wide_type, &format!("{}({x})", glsl_type(wide_type)))?;
            return Ok(narrow_integer(ty, &result));
        }
        Ok(match op {
            UnOp::Neg => format!("{t}({zero} - {x})"),
            UnOp::Not => format!("{t}(~{x})"),
            UnOp::Abs if signed => format!("({x} < {zero} ? {t}({zero} - {x}) : {x})"),
            UnOp::Abs => x.to_owned(),
            UnOp::Signum if signed => {
                format!("({x} < {zero} ? {t}(-1) : ({x} == {zero} ? {zero} : {t}(1)))")
            }
            UnOp::Signum => format!("({x} == {zero} ? {zero} : {t}(1))"),
            UnOp::Popc if thirty_two_bits => format!("bitCount({x})"),
            UnOp::Clz if thirty_two_bits => format!("(31 - findMSB(uint({x})))"),
            UnOp::Ctz if thirty_two_bits => format!("({x} == {zero} ? 32 : findLSB({x}))"),
            UnOp::Popc | UnOp::Clz | UnOp::Ctz => self.bit_count(op, ty, x),
            UnOp::FromBits if ty == PrimType::U64 => {
                let name = self.helper("from_bits_u64", |name| {
                    format!(
                        "double {name}(uint64_t x) {{ \
                         return packDouble2x32(uvec2(uint(x & 0xFFFFFFFFul), uint(x >> 32))); }}\n"
                    )
                });
                format!("{name}({x})")
            }
            _ => return Err(CodegenError::unsupported(format!("{op:?} on {type_name}"))),
        })
    }

    /// `popc`, `clz`, `ctz` (to `int`) on an 8-, 16- or 64-bit integer:
    /// on its zero-extended bits below 32, on its 32-bit halves at 64.
    fn bit_count(&mut self, op: UnOp, ty: PrimType, x: &str) -> String {
        let t = glsl_type(ty);
        let bits = bit_width(ty);
        let prologue = if bits == 64 {
            "uint low = uint(uint64_t(x) & 0xFFFFFFFFul); uint high = uint(uint64_t(x) >> 32);"
                .to_owned()
        } else {
            format!("uint v = uint(x) & {}u;", (1u64 << bits) - 1)
        };
        let body = match (op, bits) {
            (UnOp::Popc, 64) => "return bitCount(low) + bitCount(high);".to_owned(),
            (UnOp::Clz, 64) => {
                "return high != 0u ? 31 - findMSB(high) : 63 - findMSB(low);".to_owned()
            }
            (_, 64) => "return low != 0u ? findLSB(low) : (high != 0u ? 32 + findLSB(high) : 64);"
                .to_owned(),
            (UnOp::Popc, _) => "return bitCount(v);".to_owned(),
            (UnOp::Clz, _) => format!("return 31 - findMSB(v) - {};", 32 - bits),
            (_, _) => format!("return v == 0u ? {bits} : findLSB(v);"),
        };
        let name = self.helper(&format!("{}_{}", op.name(), prim_name(ty)), |name| {
            format!("int {name}({t} x) {{ {prologue} {body} }}\n")
        });
        format!("{name}({x})")
    }

    fn convert(&mut self, op: ConvOp, x: &str) -> String {
        let ConvOp { from, to } = op;
        let target = glsl_type(to);
        if from == to {
            return x.to_owned();
        }
        if to == PrimType::Bool {
            return format!("({x} != {}(0))", glsl_type(from));
        }
        if from == PrimType::Bool {
            return format!("({x} ? {target}(1) : {target}(0))");
        }
        if is_float(from) && !is_float(to) {
            // Truncate, saturate, NaN → 0.
            let bits = bit_width(to) as i32;
            let (lowest, highest_exclusive) = if is_signed(to) {
                (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
            } else {
                (0.0, 2f64.powi(bits))
            };
            let source = glsl_type(from);
            let name = self.helper(
                &format!("convert_{}_{}", prim_name(from), prim_name(to)),
                |name| {
                    let minimum = if is_signed(to) {
                        glsl_constant(min_value(to))
                    } else {
                        format!("{target}(0)")
                    };
                    let maximum = glsl_constant(max_value(to));
                    // 64-bit targets: the magnitude's two 32-bit halves
                    // converted apart (exact: the high half is a power-of-
                    // two division, the low half an exact difference), since
                    // NVIDIA's float → 64-bit conversion of 715376968574622955
                    // as f32 kept all ones in the low 32 bits (H200,
                    // tests/programs/soacs/wide_integer_to_float_in_a_kernel.fut).
                    let in_range = if bits == 64 {
                        format!(
                            "{source} magnitude = abs(x); \
                             {source} high = floor(magnitude / {source}(4294967296.0)); \
                             {source} low = magnitude - high * {source}(4294967296.0); \
                             uint64_t halves = (uint64_t(uint(high)) << uint64_t(32)) | uint64_t(uint(low)); \
                             return x < {source}(0) ? {target}(uint64_t(0) - halves) : {target}(halves);"
                        )
                    } else {
                        format!("return {target}(x);")
                    };
                    format!(
                        "{target} {name}({source} x) {{ if (isnan(x)) return {target}(0); \
                         if (x <= {}) return {minimum}; if (x >= {}) return {maximum}; \
                         {in_range} }}\n",
                        float_literal(from, lowest),
                        float_literal(from, highest_exclusive)
                    )
                },
            );
            return format!("{name}({x})");
        }
        let significand_bits = if to == PrimType::F64 { 53 } else { 24 };
        if is_float(to) && !is_float(from) && bit_width(from) > significand_bits {
            return self.integer_to_float(from, to, significand_bits, x);
        }
        if !is_float(from) && !is_float(to) && bit_width(to) < 32 {
            return narrow_integer(to, x);
        }
        // A signed integer widened to 64 bits from its two 32-bit halves,
        // not by `int64_t(x)`: lavapipe compared such a sign extension
        // with a constant as if zero-extended (`i64.i32 x < 0` was false
        // for x = -4; gpu seed 2026, programs 863, 913, 1173, 1417:
        // `tests/programs/kernels/sign_extension_compared_with_a_constant.fut`).
        if is_signed(from) && bit_width(from) <= 32 && bit_width(to) == 64 {
            return format!("{target}(packInt2x32(ivec2(int({x}), int({x}) >> 31)))");
        }
        format!("{target}({x})")
    }

    /// An integer wider than the float's significand, converted with the
    /// rounding done in integer arithmetic (to nearest, ties to even, as the
    /// CPU backend's conversion), so the value converted is exactly
    /// representable. A plain conversion is not enough: lavapipe folds
    /// `int(float(x))` back to `x`, keeping the low bits the float lost
    /// (`tests/programs/soacs/map_int_float_round_trip.fut`).
    fn integer_to_float(
        &mut self,
        from: PrimType,
        to: PrimType,
        significand_bits: u32,
        x: &str,
    ) -> String {
        let target = glsl_type(to);
        let source = glsl_type(from);
        let wide = bit_width(from) == 64;
        let unsigned = if wide { "uint64_t" } else { "uint" };
        let signed = is_signed(from);
        let name = self.helper(
            &format!("convert_{}_{}", prim_name(from), prim_name(to)),
            |name| {
                let magnitude = if signed {
                    format!("{unsigned} m = x < {source}(0) ? {unsigned}(-x) : {unsigned}(x);")
                } else {
                    format!("{unsigned} m = x;")
                };
                // Every shift's amount has the width of the value shifted. On
                // an H100 (NVIDIA driver 580.159) `f32.u64` of
                // 715376968574622955 in a kernel came out as 2^64 (gpu seed
                // 200004, program 24131:
                // `tests/programs/soacs/wide_integer_to_float_in_a_kernel.fut`);
                // the one step that can give that is the rounding below
                // when `uint64_t(1) << uint(36)`, a 64-bit value shifted by a
                // 32-bit amount, yields 0. Not yet re-run on NVIDIA hardware
                // (gpu/NOTES.md, "On an NVIDIA H100").
                let top_bit = if wide {
                    "uint high = uint(m >> uint64_t(32)); int top = high != 0u ? 32 + findMSB(high) : findMSB(uint(m));"
                } else {
                    "int top = findMSB(m);"
                };
                let overflow = format!(
                    "{target}({}) * {target}(2.0)",
                    if wide {
                        "9223372036854775808.0"
                    } else {
                        "2147483648.0"
                    }
                );
                let sign = if signed {
                    format!("x < {source}(0) ? -f : f")
                } else {
                    "f".to_owned()
                };
                format!(
                    "{target} {name}({source} x) {{ {magnitude} {top_bit} \
                     if (top >= {significand_bits}) {{ \
                     {unsigned} unit = {unsigned}(1) << {unsigned}(top - {}); \
                     {unsigned} halfway = unit >> {unsigned}(1); \
                     {unsigned} low = m & (unit - {unsigned}(1)); m -= low; \
                     if (low > halfway || (low == halfway && (m & unit) != {unsigned}(0))) m += unit; }} \
                     {target} f = (m == {unsigned}(0) && x != {source}(0)) ? {overflow} : {target}(m); \
                     return {sign}; }}\n",
                    significand_bits - 1
                )
            },
        );
        format!("{name}({x})")
    }
}

fn unsigned_counterpart(prim_type: PrimType) -> PrimType {
    match prim_type {
        PrimType::I8 => PrimType::U8,
        PrimType::I16 => PrimType::U16,
        PrimType::I32 => PrimType::U32,
        PrimType::I64 => PrimType::U64,
        other => other,
    }
}

fn min_value(prim_type: PrimType) -> PrimValue {
    match prim_type {
        PrimType::I8 => PrimValue::I8(i8::MIN),
        PrimType::I16 => PrimValue::I16(i16::MIN),
        PrimType::I32 => PrimValue::I32(i32::MIN),
        PrimType::I64 => PrimValue::I64(i64::MIN),
        PrimType::U8 => PrimValue::U8(0),
        PrimType::U16 => PrimValue::U16(0),
        PrimType::U32 => PrimValue::U32(0),
        PrimType::U64 => PrimValue::U64(0),
        PrimType::F32 => PrimValue::F32(f32::NEG_INFINITY),
        PrimType::F64 => PrimValue::F64(f64::NEG_INFINITY),
        PrimType::Bool => PrimValue::Bool(false),
    }
}

fn max_value(prim_type: PrimType) -> PrimValue {
    match prim_type {
        PrimType::I8 => PrimValue::I8(i8::MAX),
        PrimType::I16 => PrimValue::I16(i16::MAX),
        PrimType::I32 => PrimValue::I32(i32::MAX),
        PrimType::I64 => PrimValue::I64(i64::MAX),
        PrimType::U8 => PrimValue::U8(u8::MAX),
        PrimType::U16 => PrimValue::U16(u16::MAX),
        PrimType::U32 => PrimValue::U32(u32::MAX),
        PrimType::U64 => PrimValue::U64(u64::MAX),
        PrimType::F32 => PrimValue::F32(f32::INFINITY),
        PrimType::F64 => PrimValue::F64(f64::INFINITY),
        PrimType::Bool => PrimValue::Bool(true),
    }
}

/// A comparison as a GLSL `bool` expression (IEEE for floats: GLSL's
/// comparisons are ordered, `!=` unordered, as Futhark's).
fn compare(op: CmpOp, ty: PrimType, left: &str, right: &str) -> String {
    if ty == PrimType::Bool {
        return match op {
            CmpOp::Eq => format!("({left} == {right})"),
            CmpOp::Ne => format!("({left} != {right})"),
            CmpOp::Lt => format!("(!{left} && {right})"),
            CmpOp::Le => format!("(!{left} || {right})"),
            CmpOp::Gt => format!("({left} && !{right})"),
            CmpOp::Ge => format!("({left} || !{right})"),
        };
    }
    let symbol = match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    };
    format!("({left} {symbol} {right})")
}

/// The construct an expression is, for error messages.
pub fn expression_name(expression: &Exp) -> String {
    match expression {
        Exp::SubExp(_) => "a copy".to_owned(),
        Exp::BinOp { op, .. } => format!("the binary operator {op:?}"),
        Exp::UnOp { op, .. } => format!("the unary operator {op:?}"),
        Exp::Fma { .. } => "fma".to_owned(),
        Exp::CmpOp { op, .. } => format!("the comparison {op:?}"),
        Exp::ConvOp { .. } => "a conversion".to_owned(),
        Exp::Apply { function, .. } => format!("a call of `{function}`"),
        Exp::If { .. } => "an `if`".to_owned(),
        Exp::Loop { .. } => "a loop".to_owned(),
        Exp::Index { .. } => "array indexing".to_owned(),
        Exp::Slice { .. } => "array slicing".to_owned(),
        Exp::Update { .. } => "an array update".to_owned(),
        Exp::Iota { .. } => "iota".to_owned(),
        Exp::Replicate { .. } => "replicate".to_owned(),
        Exp::ArrayLiteral { .. } => "an array literal".to_owned(),
        Exp::Concat { .. } => "concat".to_owned(),
        Exp::Rearrange { .. } => "a transposition".to_owned(),
        Exp::Reshape { .. } => "a reshape".to_owned(),
        Exp::Reverse { .. } => "reverse".to_owned(),
        Exp::Rotate { .. } => "rotate".to_owned(),
        Exp::Copy { .. } => "an array copy".to_owned(),
        Exp::Assert { .. } => "an assertion".to_owned(),
        Exp::Soac(soac) => format!("a nested {}", soac_name(soac)),
        Exp::Seg(op) => format!("a nested {}", op.keyword()),
    }
}

/// The name of a SOAC (`map`, `reduce`, …).
pub fn soac_name(soac: &optimized::ir::Soac) -> &'static str {
    use optimized::ir::Soac;
    match soac {
        Soac::Map { .. } => "map",
        Soac::Reduce { .. } => "reduce",
        Soac::Scan { .. } => "scan",
        Soac::Filter { .. } => "filter",
        Soac::Scatter { .. } => "scatter",
        Soac::Hist { .. } => "reduce_by_index",
        Soac::Redomap { .. } => "redomap",
        Soac::Scanomap { .. } => "scanomap",
    }
}
