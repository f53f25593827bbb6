//! The lambdas of generated kernels, as GLSL snippets: the code generator
//! prints a lambda body in GLSL and these types turn it into a function of the
//! kernel.
//!
//! * [`MapLambda`]: parameters `x0, x1, …` (the input components), results
//!   `y0, y1, …` assigned by the body;
//! * [`Operator`]: an associative binary operator on tuples with components
//!   `a0, a1, …` (left) and `b0, b1, …` (right), results `r0, r1, …`, and a
//!   neutral element (one GLSL expression per component). The operator need
//!   not be commutative: every ordered kernel combines left to right.
//!   [`Operator::builtin`] gives the known operators (`+`, `*`, `min`, `max`,
//!   `&`, `|`, `^`, `&&`, `||`), which reductions implement with subgroup
//!   operations and histograms with atomics where the type allows.

use super::element::PrimType;
use crate::kernels::element::{GlslElement, KernelFeatures};

/// `\x0 x1 … -> (y0, y1, …)` as a GLSL body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapLambda {
    pub parameter_types: Vec<PrimType>,
    pub result_types: Vec<PrimType>,
    /// Statements reading `x0…` and assigning every `y0…`.
    pub body: String,
    /// GLSL functions the body calls, printed before it.
    pub helper_functions: String,
    /// The device features its body needs besides those of its parameter
    /// and result types (its temporaries, the arrays of its environment).
    pub body_features: KernelFeatures,
}

impl MapLambda {
    /// A lambda without helper functions.
    pub fn new(
        parameter_types: Vec<PrimType>,
        result_types: Vec<PrimType>,
        body: impl Into<String>,
    ) -> MapLambda {
        MapLambda {
            parameter_types,
            result_types,
            body: body.into(),
            helper_functions: String::new(),
            body_features: KernelFeatures::default(),
        }
    }

    /// The identity on tuples of `element_types`.
    pub fn identity(element_types: &[PrimType]) -> MapLambda {
        let body = (0..element_types.len())
            .map(|component| format!("y{component} = x{component};"))
            .collect::<Vec<_>>()
            .join(" ");
        MapLambda::new(element_types.to_vec(), element_types.to_vec(), body)
    }

    /// The GLSL function `void {name}(in T0 x0, …, out U0 y0, …)` (after the
    /// helper functions).
    pub fn glsl_function(&self, name: &str) -> String {
        let mut parameters = Vec::new();
        for (position, element_type) in self.parameter_types.iter().enumerate() {
            parameters.push(format!("in {} x{position}", element_type.glsl_value_type()));
        }
        for (position, element_type) in self.result_types.iter().enumerate() {
            parameters.push(format!(
                "out {} y{position}",
                element_type.glsl_value_type()
            ));
        }
        format!(
            "{}\nvoid {name}({}) {{\n    {}\n}}\n",
            self.helper_functions,
            parameters.join(", "),
            self.body
        )
    }
}

/// The known operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinOperator {
    Add,
    Multiply,
    Minimum,
    Maximum,
    /// Bitwise on integers, `&&` on booleans.
    And,
    /// Bitwise on integers, `||` on booleans.
    Or,
    /// Bitwise on integers, `^^` on booleans.
    Xor,
}

impl BuiltinOperator {
    /// Every known operator.
    pub const ALL: [BuiltinOperator; 7] = [
        BuiltinOperator::Add,
        BuiltinOperator::Multiply,
        BuiltinOperator::Minimum,
        BuiltinOperator::Maximum,
        BuiltinOperator::And,
        BuiltinOperator::Or,
        BuiltinOperator::Xor,
    ];

    /// Whether the operator exists at `element_type` (bitwise operators on
    /// integers and booleans, arithmetic on numbers, min/max on all).
    pub fn applies_to(self, element_type: PrimType) -> bool {
        match self {
            BuiltinOperator::And | BuiltinOperator::Or | BuiltinOperator::Xor => {
                element_type != PrimType::F32 && element_type != PrimType::F64
            }
            BuiltinOperator::Add | BuiltinOperator::Multiply => element_type != PrimType::Bool,
            BuiltinOperator::Minimum | BuiltinOperator::Maximum => true,
        }
    }

    /// A short name for kernel names.
    pub fn short_name(self) -> &'static str {
        match self {
            BuiltinOperator::Add => "add",
            BuiltinOperator::Multiply => "mul",
            BuiltinOperator::Minimum => "min",
            BuiltinOperator::Maximum => "max",
            BuiltinOperator::And => "and",
            BuiltinOperator::Or => "or",
            BuiltinOperator::Xor => "xor",
        }
    }

    /// The GLSL expression combining `left` and `right` at `element_type`.
    fn glsl_expression(self, element_type: PrimType, left: &str, right: &str) -> String {
        let value_type = element_type.glsl_value_type();
        if element_type == PrimType::Bool {
            return match self {
                BuiltinOperator::And | BuiltinOperator::Minimum => format!("({left} && {right})"),
                BuiltinOperator::Or | BuiltinOperator::Maximum => format!("({left} || {right})"),
                BuiltinOperator::Xor => format!("({left} ^^ {right})"),
                BuiltinOperator::Add | BuiltinOperator::Multiply => {
                    unreachable!("checked by applies_to")
                }
            };
        }
        // Narrow integer arithmetic promotes nowhere in GLSL, but cast anyway
        // so that literal-typed snippets stay at the element type.
        match self {
            BuiltinOperator::Add => format!("{value_type}({left} + {right})"),
            BuiltinOperator::Multiply => format!("{value_type}({left} * {right})"),
            BuiltinOperator::Minimum => format!("({left} < {right} ? {left} : {right})"),
            BuiltinOperator::Maximum => format!("({left} < {right} ? {right} : {left})"),
            BuiltinOperator::And => format!("{value_type}({left} & {right})"),
            BuiltinOperator::Or => format!("{value_type}({left} | {right})"),
            BuiltinOperator::Xor => format!("{value_type}({left} ^ {right})"),
        }
    }

    /// The GLSL neutral element at `element_type`.
    fn glsl_neutral(self, element_type: PrimType) -> String {
        let value_type = element_type.glsl_value_type();
        if element_type == PrimType::Bool {
            return match self {
                BuiltinOperator::And | BuiltinOperator::Minimum => "true".to_owned(),
                _ => "false".to_owned(),
            };
        }
        match self {
            BuiltinOperator::Add | BuiltinOperator::Or | BuiltinOperator::Xor => {
                format!("{value_type}(0)")
            }
            BuiltinOperator::Multiply => format!("{value_type}(1)"),
            BuiltinOperator::And => match element_type {
                PrimType::I64 | PrimType::U64 => {
                    format!("{value_type}(0xFFFFFFFFFFFFFFFFul)")
                }
                _ => format!("{value_type}(~0u)"),
            },
            BuiltinOperator::Minimum => largest_value(element_type),
            BuiltinOperator::Maximum => smallest_value(element_type),
        }
    }

    /// The GLSL subgroup function implementing this operator, where the
    /// element type is a 32-bit one (the only sizes every subgroup
    /// implementation supports without `shaderSubgroupExtendedTypes`).
    pub fn subgroup_function(self, element_type: PrimType) -> Option<&'static str> {
        let thirty_two_bits = matches!(element_type, PrimType::I32 | PrimType::U32 | PrimType::F32);
        if !thirty_two_bits || !self.applies_to(element_type) {
            return None;
        }
        Some(match self {
            BuiltinOperator::Add => "subgroupAdd",
            BuiltinOperator::Multiply => "subgroupMul",
            BuiltinOperator::Minimum => "subgroupMin",
            BuiltinOperator::Maximum => "subgroupMax",
            BuiltinOperator::And => "subgroupAnd",
            BuiltinOperator::Or => "subgroupOr",
            BuiltinOperator::Xor => "subgroupXor",
        })
    }
}

/// The largest value of a numeric type as GLSL (+∞ for floats).
fn largest_value(element_type: PrimType) -> String {
    match element_type {
        PrimType::I8 => "int8_t(127)".to_owned(),
        PrimType::I16 => "int16_t(32767)".to_owned(),
        PrimType::I32 => "int(0x7FFFFFFF)".to_owned(),
        PrimType::I64 => "int64_t(0x7FFFFFFFFFFFFFFFl)".to_owned(),
        PrimType::U8 => "uint8_t(255)".to_owned(),
        PrimType::U16 => "uint16_t(65535)".to_owned(),
        PrimType::U32 => "uint(0xFFFFFFFFu)".to_owned(),
        PrimType::U64 => "uint64_t(0xFFFFFFFFFFFFFFFFul)".to_owned(),
        PrimType::F32 => "uintBitsToFloat(0x7F800000u)".to_owned(),
        PrimType::F64 => "packDouble2x32(uvec2(0u, 0x7FF00000u))".to_owned(),
        PrimType::Bool => "true".to_owned(),
    }
}

/// The smallest value of a numeric type as GLSL (−∞ for floats).
fn smallest_value(element_type: PrimType) -> String {
    match element_type {
        PrimType::I8 => "int8_t(-128)".to_owned(),
        PrimType::I16 => "int16_t(-32768)".to_owned(),
        PrimType::I32 => "int(0x80000000)".to_owned(),
        PrimType::I64 => "int64_t(0x8000000000000000ul)".to_owned(),
        PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64 => {
            format!("{}(0)", element_type.glsl_value_type())
        }
        PrimType::F32 => "uintBitsToFloat(0xFF800000u)".to_owned(),
        PrimType::F64 => "packDouble2x32(uvec2(0u, 0xFFF00000u))".to_owned(),
        PrimType::Bool => "false".to_owned(),
    }
}

/// An associative binary operator on tuples, with its neutral element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operator {
    pub element_types: Vec<PrimType>,
    /// One GLSL expression per component.
    pub neutral: Vec<String>,
    /// Statements reading `a0…`, `b0…` and assigning every `r0…`.
    pub body: String,
    /// GLSL functions the body calls, printed before it.
    pub helper_functions: String,
    /// Set when this is a known operator on one primitive type.
    pub builtin: Option<BuiltinOperator>,
    /// Whether `a ⊕ b = b ⊕ a` (known operators are); kernels that reorder
    /// operands (subgroup reductions, atomics) need it.
    pub commutative: bool,
}

impl Operator {
    /// A user operator (not assumed commutative).
    pub fn new(
        element_types: Vec<PrimType>,
        neutral: Vec<String>,
        body: impl Into<String>,
    ) -> Operator {
        Operator {
            element_types,
            neutral,
            body: body.into(),
            helper_functions: String::new(),
            builtin: None,
            commutative: false,
        }
    }

    /// A known operator at `element_type`, or `None` where it does not
    /// apply (e.g. `&` on floats).
    pub fn builtin(operator: BuiltinOperator, element_type: PrimType) -> Option<Operator> {
        if !operator.applies_to(element_type) {
            return None;
        }
        Some(Operator {
            element_types: vec![element_type],
            neutral: vec![operator.glsl_neutral(element_type)],
            body: format!(
                "r0 = {};",
                operator.glsl_expression(element_type, "a0", "b0")
            ),
            helper_functions: String::new(),
            builtin: Some(operator),
            commutative: true,
        })
    }

    /// The GLSL function `void {name}(in T0 a0, …, in T0 b0, …, out T0 r0, …)`.
    pub fn glsl_function(&self, name: &str) -> String {
        let mut parameters = Vec::new();
        for prefix_and_mode in [("a", "in"), ("b", "in"), ("r", "out")] {
            let (prefix, mode) = prefix_and_mode;
            for (position, element_type) in self.element_types.iter().enumerate() {
                parameters.push(format!(
                    "{mode} {} {prefix}{position}",
                    element_type.glsl_value_type()
                ));
            }
        }
        format!(
            "{}\nvoid {name}({}) {{\n    {}\n}}\n",
            self.helper_functions,
            parameters.join(", "),
            self.body
        )
    }
}
