//! The readable text form of the IR, used by `runestone compile --dump ir`,
//! by the checker's error messages and by snapshot tests.
//!
//! ```text
//! fun f (n_1: i64, xs_2: [n_1]f32): {[n_1]f32} = {
//!   let {ys_3: [n_1]f32} = map(n_1, \ {x_4: f32}: {f32} -> {
//!     let {y_5: f32} = add.f32(x_4, 1f32)
//!     in {y_5}
//!   }, xs_2)
//!   in {ys_3}
//! }
//! ```
//!
//! Existential result dimensions print as `?k` (the `k`th result).

use std::fmt::{self, Display, Write};

use super::syntax::*;

/// The whole program as text.
pub fn print_program(program: &Program) -> String {
    program.to_string()
}

impl Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        for (i, function) in self.functions.iter().enumerate() {
            if i > 0 {
                p.out.push('\n');
            }
            p.function(function);
        }
        for entry in &self.entry_points {
            p.out.push('\n');
            p.entry_point(entry);
        }
        f.write_str(&p.out)
    }
}

impl Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        p.function(self);
        f.write_str(&p.out)
    }
}

impl Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        p.body(self);
        f.write_str(&p.out)
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        p.statement(self);
        f.write_str(p.out.trim_end())
    }
}

impl Display for Exp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        p.exp(self);
        f.write_str(&p.out)
    }
}

impl Display for Lambda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer::default();
        p.lambda(self);
        f.write_str(&p.out)
    }
}

impl Display for SubExp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubExp::Var(v) => write!(f, "{v}"),
            SubExp::Constant(c) => write_constant(f, c),
        }
    }
}

/// A constant with its type suffix (`1i32`, `true`, `1.5f32`, `f32.nan`).
fn write_constant(f: &mut impl Write, c: &PrimValue) -> fmt::Result {
    match *c {
        PrimValue::Bool(b) => write!(f, "{b}"),
        PrimValue::F32(x) => write_float(f, x as f64, x.is_nan(), "f32"),
        PrimValue::F64(x) => write_float(f, x, x.is_nan(), "f64"),
        other => {
            let text = match other {
                PrimValue::I8(x) => x.to_string(),
                PrimValue::I16(x) => x.to_string(),
                PrimValue::I32(x) => x.to_string(),
                PrimValue::I64(x) => x.to_string(),
                PrimValue::U8(x) => x.to_string(),
                PrimValue::U16(x) => x.to_string(),
                PrimValue::U32(x) => x.to_string(),
                PrimValue::U64(x) => x.to_string(),
                _ => unreachable!("floats and booleans are handled above"),
            };
            write!(f, "{text}{}", other.prim_type())
        }
    }
}

fn write_float(f: &mut impl Write, x: f64, nan: bool, suffix: &str) -> fmt::Result {
    if nan {
        write!(f, "{suffix}.nan")
    } else if x.is_infinite() {
        let sign = if x < 0.0 { "-" } else { "" };
        write!(f, "{sign}{suffix}.inf")
    } else {
        write!(f, "{x:?}{suffix}")
    }
}

impl Display for ExtDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtDim::Free(d) => write!(f, "{d}"),
            ExtDim::Existential(k) => write!(f, "?{k}"),
        }
    }
}

/// How a dimension prints inside `[…]`: `i64` constants without their
/// suffix (`[3]f32`).
pub trait DimText {
    fn dim_text(&self) -> String;
}

impl DimText for SubExp {
    fn dim_text(&self) -> String {
        match self {
            SubExp::Constant(PrimValue::I64(n)) => n.to_string(),
            other => other.to_string(),
        }
    }
}

impl DimText for ExtDim {
    fn dim_text(&self) -> String {
        match self {
            ExtDim::Free(d) => d.dim_text(),
            ExtDim::Existential(k) => format!("?{k}"),
        }
    }
}

impl<D: DimText> Display for TypeBase<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeBase::Prim(t) => write!(f, "{t}"),
            TypeBase::Array { element, shape } => {
                for d in shape {
                    write!(f, "[{}]", d.dim_text())?;
                }
                write!(f, "{element}")
            }
        }
    }
}

impl Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.ty)
    }
}

impl BinOp {
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Mod => "mod",
            BinOp::Quot => "quot",
            BinOp::Rem => "rem",
            BinOp::Pow => "pow",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::Atan2 => "atan2",
            BinOp::MulHi => "mul_hi",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
            BinOp::UShr => "ushr",
            BinOp::LogAnd => "logand",
            BinOp::LogOr => "logor",
        }
    }
}

impl UnOp {
    pub fn name(self) -> &'static str {
        match self {
            UnOp::Neg => "neg",
            UnOp::Not => "not",
            UnOp::Abs => "abs",
            UnOp::Signum => "sgn",
            UnOp::Sqrt => "sqrt",
            UnOp::Exp => "exp",
            UnOp::Log => "log",
            UnOp::Log2 => "log2",
            UnOp::Log10 => "log10",
            UnOp::Sin => "sin",
            UnOp::Cos => "cos",
            UnOp::Tan => "tan",
            UnOp::Asin => "asin",
            UnOp::Acos => "acos",
            UnOp::Atan => "atan",
            UnOp::Sinh => "sinh",
            UnOp::Cosh => "cosh",
            UnOp::Tanh => "tanh",
            UnOp::Asinh => "asinh",
            UnOp::Acosh => "acosh",
            UnOp::Atanh => "atanh",
            UnOp::Floor => "floor",
            UnOp::Ceil => "ceil",
            UnOp::Round => "round",
            UnOp::Trunc => "trunc",
            UnOp::IsNan => "isnan",
            UnOp::IsInf => "isinf",
            UnOp::Popc => "popc",
            UnOp::Clz => "clz",
            UnOp::Ctz => "ctz",
            UnOp::Cbrt => "cbrt",
            UnOp::Log1p => "log1p",
            UnOp::Gamma => "gamma",
            UnOp::Lgamma => "lgamma",
            UnOp::Erf => "erf",
            UnOp::Erfc => "erfc",
            UnOp::ToBits => "to_bits",
            UnOp::FromBits => "from_bits",
        }
    }
}

impl CmpOp {
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
        }
    }
}

/// Writes with indentation; `out` is the text so far.
#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
}

fn commas<T: Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Printer {
    fn line_start(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn function(&mut self, function: &Function) {
        let _ = write!(
            self.out,
            "fun {} ({}): {{{}}} = ",
            function.name,
            commas(&function.params),
            commas(&function.return_types)
        );
        self.block(&function.body);
        self.out.push('\n');
    }

    fn entry_point(&mut self, entry: &EntryPoint) {
        let params = entry
            .parameters
            .iter()
            .map(|p| format!("{}: {}", p.name, p.layout))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            self.out,
            "entry {} = {} (sizes {}) ({}): (sizes {}) {}",
            entry.name,
            entry.function,
            entry.size_parameters,
            params,
            entry.size_results,
            entry.result
        );
    }

    /// `{` statements `in {results}` `}` over several lines.
    fn block(&mut self, body: &Body) {
        self.out.push_str("{\n");
        self.indent += 1;
        self.body(body);
        self.indent -= 1;
        self.line_start();
        self.out.push('}');
    }

    fn body(&mut self, body: &Body) {
        for statement in &body.statements {
            self.statement(statement);
        }
        self.line_start();
        let _ = writeln!(self.out, "in {{{}}}", commas(&body.result));
    }

    fn statement(&mut self, statement: &Statement) {
        self.line_start();
        let _ = write!(self.out, "let {{{}}} = ", commas(&statement.pattern));
        self.exp(&statement.expression);
        self.out.push('\n');
    }

    fn lambda(&mut self, lambda: &Lambda) {
        let _ = write!(
            self.out,
            "\\ {{{}}}: {{{}}} -> ",
            commas(&lambda.params),
            commas(&lambda.return_types)
        );
        self.block(&lambda.body);
    }

    fn exp(&mut self, exp: &Exp) {
        match exp {
            Exp::SubExp(s) => {
                let _ = write!(self.out, "{s}");
            }
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                let _ = write!(self.out, "{}.{ty}({left}, {right})", op.name());
            }
            Exp::UnOp { op, ty, operand } => {
                let _ = write!(self.out, "{}.{ty}({operand})", op.name());
            }
            Exp::Fma { ty, a, b, c } => {
                let _ = write!(self.out, "fma.{ty}({a}, {b}, {c})");
            }
            Exp::CmpOp {
                op,
                ty,
                left,
                right,
            } => {
                let _ = write!(self.out, "{}.{ty}({left}, {right})", op.name());
            }
            Exp::ConvOp { op, operand } => {
                let _ = write!(self.out, "{}.{}({operand})", op.to, op.from);
            }
            Exp::Apply { function, args } => {
                let _ = write!(self.out, "{function}({})", commas(args));
            }
            Exp::If {
                condition,
                then_body,
                else_body,
                types,
            } => {
                let _ = write!(self.out, "if {condition}: {{{}}} then ", commas(types));
                self.block(then_body);
                self.out.push_str(" else ");
                self.block(else_body);
            }
            Exp::Loop { params, form, body } => {
                let params = params
                    .iter()
                    .map(|(p, init)| format!("{p} = {init}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = write!(self.out, "loop {{{params}}} ");
                match form {
                    LoopForm::For { index, bound } => {
                        let _ = write!(self.out, "for {index} < {bound} do ");
                    }
                    LoopForm::While { condition_param } => {
                        let _ = write!(self.out, "while {condition_param} do ");
                    }
                }
                self.block(body);
            }
            Exp::Index { array, indices } => {
                let _ = write!(self.out, "{array}[{}]", commas(indices));
            }
            Exp::Slice { array, slice } => {
                let dims = slice
                    .iter()
                    .map(|d| match d {
                        DimIndex::Fix(i) => i.to_string(),
                        DimIndex::Range {
                            start,
                            length,
                            stride,
                        } => format!("{start}:+{length}*{stride}"),
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = write!(self.out, "{array}[{dims}]");
            }
            Exp::Update {
                array,
                indices,
                value,
            } => {
                let _ = write!(self.out, "{array} with [{}] = {value}", commas(indices));
            }
            Exp::Iota {
                length,
                start,
                step,
                element,
            } => {
                let _ = write!(self.out, "iota.{element}({length}, {start}, {step})");
            }
            Exp::Replicate { shape, value } => {
                let dims: String = shape
                    .iter()
                    .map(|d| format!("[{}]", d.dim_text()))
                    .collect();
                let _ = write!(self.out, "replicate({dims}, {value})");
            }
            Exp::ArrayLiteral { elements, row_type } => {
                let _ = write!(self.out, "[{}]: []{row_type}", commas(elements));
            }
            Exp::Concat { arrays, length } => {
                let _ = write!(self.out, "concat({length}; {})", commas(arrays));
            }
            Exp::Rearrange { permutation, array } => {
                let _ = write!(self.out, "rearrange({}; {array})", commas(permutation));
            }
            Exp::Reshape { shape, array } => {
                let dims: String = shape
                    .iter()
                    .map(|d| format!("[{}]", d.dim_text()))
                    .collect();
                let _ = write!(self.out, "reshape({dims}, {array})");
            }
            Exp::Reverse { array } => {
                let _ = write!(self.out, "reverse({array})");
            }
            Exp::Rotate { amount, array } => {
                let _ = write!(self.out, "rotate({amount}, {array})");
            }
            Exp::Copy { array } => {
                let _ = write!(self.out, "copy({array})");
            }
            Exp::Assert {
                condition,
                message,
                operands,
                ..
            } => {
                let _ = write!(self.out, "assert({condition}, {message:?}");
                for operand in operands {
                    let _ = write!(self.out, ", {operand}");
                }
                self.out.push(')');
            }
            Exp::Soac(soac) => self.soac(soac),
            Exp::Seg(op) => self.seg_op(op),
        }
    }

    /// `segmap((i < n, j < m)): {types} {body}`;
    /// `segred((i < n, j < m), operator, {neutral}) {body}`, `segscan` alike.
    fn seg_op(&mut self, op: &SegOp) {
        let space = op
            .space()
            .dims
            .iter()
            .map(|d| format!("{} < {}", d.index, d.size))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(self.out, "{}(({space})", op.keyword());
        match op {
            SegOp::Map { return_types, .. } => {
                let _ = write!(self.out, "): {{{}}} ", commas(return_types));
            }
            SegOp::Red {
                operator, neutral, ..
            }
            | SegOp::Scan {
                operator, neutral, ..
            } => {
                self.out.push_str(", ");
                self.lambda_arg(operator);
                let _ = write!(self.out, "{{{}}}) ", commas(neutral));
            }
        }
        self.block(op.body());
    }

    fn lambda_arg(&mut self, lambda: &Lambda) {
        self.lambda(lambda);
        self.out.push_str(", ");
    }

    fn soac(&mut self, soac: &Soac) {
        match soac {
            Soac::Map {
                width,
                lambda,
                arrays,
            } => {
                let _ = write!(self.out, "map({width}, ");
                self.lambda_arg(lambda);
                let _ = write!(self.out, "{})", commas(arrays));
            }
            Soac::Reduce {
                width,
                lambda,
                neutral,
                arrays,
            } => {
                let _ = write!(self.out, "reduce({width}, ");
                self.lambda_arg(lambda);
                let _ = write!(self.out, "{{{}}}, {})", commas(neutral), commas(arrays));
            }
            Soac::Scan {
                width,
                lambda,
                neutral,
                arrays,
            } => {
                let _ = write!(self.out, "scan({width}, ");
                self.lambda_arg(lambda);
                let _ = write!(self.out, "{{{}}}, {})", commas(neutral), commas(arrays));
            }
            Soac::Filter {
                width,
                predicate,
                arrays,
            } => {
                let _ = write!(self.out, "filter({width}, ");
                self.lambda_arg(predicate);
                let _ = write!(self.out, "{})", commas(arrays));
            }
            Soac::Scatter {
                width,
                destinations,
                indices,
                values,
            } => {
                let _ = write!(
                    self.out,
                    "scatter({width}, {{{}}}, {indices}, {{{}}})",
                    commas(destinations),
                    commas(values)
                );
            }
            Soac::Hist {
                width,
                destinations,
                operator,
                neutral,
                indices,
                values,
            } => {
                let _ = write!(self.out, "hist({width}, {{{}}}, ", commas(destinations));
                self.lambda_arg(operator);
                let _ = write!(
                    self.out,
                    "{{{}}}, {indices}, {{{}}})",
                    commas(neutral),
                    commas(values)
                );
            }
            Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda,
                neutral,
                arrays,
            } => {
                let _ = write!(self.out, "redomap({width}, ");
                self.lambda_arg(map_lambda);
                self.lambda_arg(reduce_lambda);
                let _ = write!(self.out, "{{{}}}, {})", commas(neutral), commas(arrays));
            }
            Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda,
                neutral,
                arrays,
            } => {
                let _ = write!(self.out, "scanomap({width}, ");
                self.lambda_arg(map_lambda);
                self.lambda_arg(scan_lambda);
                let _ = write!(self.out, "{{{}}}, {})", commas(neutral), commas(arrays));
            }
        }
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::Prim(t) => write!(f, "{t}"),
            Layout::Tuple(components) => write!(f, "({})", commas(components)),
            Layout::Record(fields) => {
                let fields = fields
                    .iter()
                    .map(|(n, l)| format!("{n}: {l}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                write!(f, "{{{fields}}}")
            }
            Layout::Sum { constructors } => {
                let cs = constructors
                    .iter()
                    .map(|(n, payload)| {
                        let mut s = format!("#{n}");
                        for l in payload {
                            let _ = write!(s, " {l}");
                        }
                        s
                    })
                    .collect::<Vec<_>>()
                    .join(" | ");
                write!(f, "({cs})")
            }
            Layout::Array { rank, element } => {
                for _ in 0..*rank {
                    f.write_str("[]")?;
                }
                write!(f, "{element}")
            }
        }
    }
}
