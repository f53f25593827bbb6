//! The IR type checker, and the pass manager that runs it after every pass.
//!
//! [`check_program`] checks the invariants of [`super::syntax`]: every name
//! is bound once in the program and before it is used; every type is well
//! formed (dimensions are `i64` constants or `i64` variables in scope); every
//! expression has the types its pattern declares, shapes compared
//! symbolically (a dimension `n` equals only `n` or, for constants, the same
//! constant: a producer that knows two sizes agree only at run time coerces
//! with `Reshape`, which checks); SOAC lambdas have the arities and types
//! their combinator needs (a reduction operator is `(a…, a…) -> a…`, neutral
//! elements have type `a…`, array outer dimensions equal the width); bodies
//! return their declared types; entry points describe their functions.
//!
//! [`run_pass`] runs a pass and then the checker, in every build profile.

use std::collections::{HashMap, HashSet};
use std::fmt;

use imbl::HashMap as Scope;

use super::syntax::*;

/// An ill-typed IR program: what is wrong, in which function, where.
#[derive(Clone, Debug)]
pub struct IrTypeError {
    pub message: String,
    /// The function (or entry point) being checked, if any.
    pub function: Option<String>,
    pub span: Span,
}

impl fmt::Display for IrTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.function {
            Some(function) => write!(f, "in {function}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for IrTypeError {}

/// A pass produced an ill-typed program: the pass, the error and the printed
/// IR it produced.
#[derive(Clone, Debug)]
pub struct PassError {
    pub pass: String,
    pub error: IrTypeError,
    pub ir: String,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the IR after pass `{}` is ill-typed: {}\n--- IR after `{}` ---\n{}",
            self.pass, self.error, self.pass, self.ir
        )
    }
}

impl std::error::Error for PassError {}

/// Runs `pass` on `program`, then the checker (in release builds too). A
/// failure names the pass and carries the printed IR.
pub fn run_pass(
    name: &str,
    program: Program,
    pass: impl FnOnce(Program) -> Program,
) -> std::result::Result<Program, PassError> {
    let result = pass(program);
    match check_program(&result) {
        Ok(()) => Ok(result),
        Err(error) => Err(PassError {
            pass: name.to_string(),
            error,
            ir: result.to_string(),
        }),
    }
}

/// Runs passes in order, checking after each one; records each pass name.
#[derive(Default)]
pub struct PassManager {
    passes_run: Vec<String>,
}

impl PassManager {
    pub fn new() -> PassManager {
        PassManager::default()
    }

    /// Runs one pass and the checker; see [`run_pass`].
    pub fn run(
        &mut self,
        name: &str,
        program: Program,
        pass: impl FnOnce(Program) -> Program,
    ) -> std::result::Result<Program, PassError> {
        let program = run_pass(name, program, pass)?;
        self.passes_run.push(name.to_string());
        Ok(program)
    }

    /// The passes run so far, in order.
    pub fn passes_run(&self) -> &[String] {
        &self.passes_run
    }
}

/// Checks a whole program: see the module documentation.
pub fn check_program(program: &Program) -> std::result::Result<(), IrTypeError> {
    let mut checker = Checker {
        functions: HashMap::with_capacity(program.functions.len()),
        bound: HashSet::new(),
        function: None,
        span: Span::default(),
    };
    for function in &program.functions {
        if checker.functions.insert(&function.name, function).is_some() {
            return Err(checker.error_at(
                function.span,
                format!("function {} is defined twice", function.name),
            ));
        }
    }
    for function in &program.functions {
        checker.function = Some(function.name.to_string());
        checker.span = function.span;
        checker.check_function(function)?;
    }
    let mut entry_names = HashSet::new();
    for entry in &program.entry_points {
        checker.function = Some(format!("entry point {}", entry.name));
        if !entry_names.insert(&entry.name) {
            return Err(checker.error("the entry point is defined twice".to_string()));
        }
        checker.check_entry_point(entry)?;
    }
    Ok(())
}

type CheckResult<T> = std::result::Result<T, IrTypeError>;

struct Checker<'p> {
    /// The program's functions by name (a call is checked in O(1), not by
    /// a scan of the function list).
    functions: HashMap<&'p FunName, &'p Function>,
    /// Every name bound so far in the program (names are unique).
    bound: HashSet<VName>,
    function: Option<String>,
    /// The span of the statement or function being checked.
    span: Span,
}

fn i64_type() -> Type {
    Type::Prim(PrimType::I64)
}

fn commas<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Replaces variables by sub-expressions in a type's dimensions.
fn substitute_type(ty: &Type, substitution: &HashMap<VName, SubExp>) -> Type {
    match ty {
        Type::Prim(t) => Type::Prim(*t),
        Type::Array { element, shape } => Type::Array {
            element: *element,
            shape: shape
                .iter()
                .map(|d| substitute_subexp(d, substitution))
                .collect(),
        },
    }
}

fn substitute_subexp(d: &SubExp, substitution: &HashMap<VName, SubExp>) -> SubExp {
    match d {
        SubExp::Var(v) => substitution.get(v).cloned().unwrap_or_else(|| d.clone()),
        SubExp::Constant(_) => d.clone(),
    }
}

fn substitute_ext_type(ty: &ExtType, substitution: &HashMap<VName, SubExp>) -> ExtType {
    match ty {
        ExtType::Prim(t) => ExtType::Prim(*t),
        ExtType::Array { element, shape } => ExtType::Array {
            element: *element,
            shape: shape
                .iter()
                .map(|d| match d {
                    ExtDim::Free(d) => ExtDim::Free(substitute_subexp(d, substitution)),
                    ExtDim::Existential(k) => ExtDim::Existential(*k),
                })
                .collect(),
        },
    }
}

/// An existential type made concrete: `Existential(k)` becomes `values[k]`.
fn instantiate(ty: &ExtType, values: &[SubExp]) -> Option<Type> {
    Some(match ty {
        ExtType::Prim(t) => Type::Prim(*t),
        ExtType::Array { element, shape } => Type::Array {
            element: *element,
            shape: shape
                .iter()
                .map(|d| match d {
                    ExtDim::Free(d) => Some(d.clone()),
                    ExtDim::Existential(k) => values.get(*k).cloned(),
                })
                .collect::<Option<Vec<_>>>()?,
        },
    })
}

impl Checker<'_> {
    fn error(&self, message: String) -> IrTypeError {
        self.error_at(self.span, message)
    }

    fn error_at(&self, span: Span, message: String) -> IrTypeError {
        IrTypeError {
            message,
            function: self.function.clone(),
            span,
        }
    }

    /// Binds `name` for the first time in the program.
    fn bind_fresh(&mut self, scope: &mut Scope<VName, Type>, param: &Param) -> CheckResult<()> {
        if !self.bound.insert(param.name.clone()) {
            return Err(self.error(format!("{} is bound twice", param.name)));
        }
        scope.insert(param.name.clone(), param.ty.clone());
        Ok(())
    }

    fn subexp_type(&self, scope: &Scope<VName, Type>, s: &SubExp) -> CheckResult<Type> {
        match s {
            SubExp::Constant(c) => Ok(Type::Prim(c.prim_type())),
            SubExp::Var(v) => scope
                .get(v)
                .cloned()
                .ok_or_else(|| self.error(format!("{v} is not in scope"))),
        }
    }

    fn expect_subexp(
        &self,
        scope: &Scope<VName, Type>,
        s: &SubExp,
        expected: &Type,
    ) -> CheckResult<()> {
        let actual = self.subexp_type(scope, s)?;
        if &actual != expected {
            return Err(self.error(format!("{s} has type {actual}, expected {expected}")));
        }
        Ok(())
    }

    fn expect_i64(&self, scope: &Scope<VName, Type>, s: &SubExp, what: &str) -> CheckResult<()> {
        let actual = self.subexp_type(scope, s)?;
        if actual != i64_type() {
            return Err(self.error(format!("{what} {s} has type {actual}, expected i64")));
        }
        Ok(())
    }

    fn array_type(&self, scope: &Scope<VName, Type>, array: &VName) -> CheckResult<Type> {
        let ty = self.subexp_type(scope, &SubExp::Var(array.clone()))?;
        if ty.rank() == 0 {
            return Err(self.error(format!("{array} has type {ty}, expected an array")));
        }
        Ok(ty)
    }

    /// A dimension must be an `i64` constant (non-negative) or an `i64`
    /// variable in scope.
    fn check_dim(&self, scope: &Scope<VName, Type>, d: &SubExp) -> CheckResult<()> {
        match d {
            SubExp::Constant(PrimValue::I64(n)) if *n >= 0 => Ok(()),
            SubExp::Constant(c) => Err(self.error(format!(
                "dimension {} is not a non-negative i64",
                SubExp::Constant(*c)
            ))),
            SubExp::Var(_) => self.expect_i64(scope, d, "dimension"),
        }
    }

    fn check_type(&self, scope: &Scope<VName, Type>, ty: &Type) -> CheckResult<()> {
        if let Type::Array { shape, .. } = ty {
            if shape.is_empty() {
                return Err(self.error("an array type has no dimension".to_string()));
            }
            for d in shape {
                self.check_dim(scope, d)?;
            }
        }
        Ok(())
    }

    /// Result types: free dimensions in scope, existential ones referring to
    /// an `i64` among `types`.
    fn check_ext_types(&self, scope: &Scope<VName, Type>, types: &[ExtType]) -> CheckResult<()> {
        for ty in types {
            if let ExtType::Array { shape, .. } = ty {
                if shape.is_empty() {
                    return Err(self.error("an array type has no dimension".to_string()));
                }
                for d in shape {
                    match d {
                        ExtDim::Free(d) => self.check_dim(scope, d)?,
                        ExtDim::Existential(k) => {
                            if types.get(*k) != Some(&ExtType::Prim(PrimType::I64)) {
                                return Err(self.error(format!(
                                    "existential dimension ?{k} does not refer to an i64 result \
                                     among {{{}}}",
                                    commas(types)
                                )));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The values `results` (of `actual` types) match `expected`, whose
    /// existential dimensions are instantiated by the results themselves.
    fn match_results(
        &self,
        expected: &[ExtType],
        results: &[SubExp],
        actual: &[Type],
        what: &str,
    ) -> CheckResult<()> {
        if expected.len() != actual.len() {
            return Err(self.error(format!(
                "{what} returns {} values, expected {}",
                actual.len(),
                expected.len()
            )));
        }
        for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
            let e = instantiate(e, results)
                .ok_or_else(|| self.error(format!("{what}: existential dimension out of range")))?;
            if &e != a {
                return Err(self.error(format!(
                    "{what}: result {i} ({}) has type {a}, expected {e}",
                    results[i]
                )));
            }
        }
        Ok(())
    }

    fn check_function(&mut self, function: &Function) -> CheckResult<()> {
        let mut scope = Scope::new();
        for p in &function.params {
            self.check_type(&scope, &p.ty)?;
            self.bind_fresh(&mut scope, p)?;
        }
        self.check_ext_types(&scope, &function.return_types)?;
        let types = self.check_body(&scope, &function.body)?;
        self.span = function.span;
        self.match_results(
            &function.return_types,
            &function.body.result,
            &types,
            &format!("the body of {}", function.name),
        )
    }

    /// The types of the body's results.
    fn check_body(&mut self, scope: &Scope<VName, Type>, body: &Body) -> CheckResult<Vec<Type>> {
        let mut scope = scope.clone();
        for statement in &body.statements {
            self.span = statement.span;
            let types = self.check_exp(&scope, &statement.expression)?;
            self.span = statement.span;
            self.bind_pattern(&mut scope, &statement.pattern, &types)?;
        }
        body.result
            .iter()
            .map(|r| self.subexp_type(&scope, r))
            .collect()
    }

    /// Binds a pattern to an expression's result types: existential
    /// dimensions become the names of the pattern's own elements.
    fn bind_pattern(
        &mut self,
        scope: &mut Scope<VName, Type>,
        pattern: &[PatElem],
        types: &[ExtType],
    ) -> CheckResult<()> {
        if pattern.len() != types.len() {
            return Err(self.error(format!(
                "the pattern binds {} values, the expression returns {} ({{{}}})",
                pattern.len(),
                types.len(),
                commas(types)
            )));
        }
        let names: Vec<SubExp> = pattern
            .iter()
            .map(|p| SubExp::Var(p.name.clone()))
            .collect();
        for (p, ty) in pattern.iter().zip(types) {
            let expected = instantiate(ty, &names)
                .ok_or_else(|| self.error("existential dimension out of range".to_string()))?;
            if expected != p.ty {
                return Err(self.error(format!(
                    "{} is declared {}, but the expression returns {expected}",
                    p.name, p.ty
                )));
            }
            self.check_type(scope, &p.ty)?;
            self.bind_fresh(scope, p)?;
        }
        Ok(())
    }

    fn check_exp(&mut self, scope: &Scope<VName, Type>, exp: &Exp) -> CheckResult<Vec<ExtType>> {
        let known = |types: Vec<Type>| types.iter().map(Type::to_ext).collect::<Vec<_>>();
        match exp {
            Exp::SubExp(s) => Ok(known(vec![self.subexp_type(scope, s)?])),
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                self.check_binop(*op, *ty)?;
                self.expect_subexp(scope, left, &Type::Prim(*ty))?;
                self.expect_subexp(scope, right, &Type::Prim(*ty))?;
                Ok(vec![ExtType::Prim(*ty)])
            }
            Exp::UnOp { op, ty, operand } => {
                let result = self.check_unop(*op, *ty)?;
                self.expect_subexp(scope, operand, &Type::Prim(*ty))?;
                Ok(vec![ExtType::Prim(result)])
            }
            Exp::Fma { ty, a, b, c } => {
                if !ty.is_float() {
                    return Err(self.error(format!("fma on the non-float type {ty}")));
                }
                for operand in [a, b, c] {
                    self.expect_subexp(scope, operand, &Type::Prim(*ty))?;
                }
                Ok(vec![ExtType::Prim(*ty)])
            }
            Exp::CmpOp {
                ty, left, right, ..
            } => {
                self.expect_subexp(scope, left, &Type::Prim(*ty))?;
                self.expect_subexp(scope, right, &Type::Prim(*ty))?;
                Ok(vec![ExtType::Prim(PrimType::Bool)])
            }
            Exp::ConvOp { op, operand } => {
                self.expect_subexp(scope, operand, &Type::Prim(op.from))?;
                Ok(vec![ExtType::Prim(op.to)])
            }
            Exp::Apply { function, args } => self.check_apply(scope, function, args),
            Exp::If {
                condition,
                then_body,
                else_body,
                types,
            } => {
                self.expect_subexp(scope, condition, &Type::Prim(PrimType::Bool))?;
                self.check_ext_types(scope, types)?;
                let span = self.span;
                let then_types = self.check_body(scope, then_body)?;
                self.span = span;
                self.match_results(types, &then_body.result, &then_types, "the then branch")?;
                let else_types = self.check_body(scope, else_body)?;
                self.span = span;
                self.match_results(types, &else_body.result, &else_types, "the else branch")?;
                Ok(types.clone())
            }
            Exp::Loop { params, form, body } => self.check_loop(scope, params, form, body),
            Exp::Index { array, indices } => {
                let ty = self.array_type(scope, array)?;
                if indices.len() > ty.rank() {
                    return Err(self.error(format!(
                        "{} indices into {array} of rank {}",
                        indices.len(),
                        ty.rank()
                    )));
                }
                for i in indices {
                    self.expect_i64(scope, i, "index")?;
                }
                Ok(vec![drop_dims(&ty, indices.len()).to_ext()])
            }
            Exp::Slice { array, slice } => {
                let ty = self.array_type(scope, array)?;
                if slice.len() > ty.rank() {
                    return Err(self.error(format!(
                        "{} slice dimensions for {array} of rank {}",
                        slice.len(),
                        ty.rank()
                    )));
                }
                let mut shape = Vec::new();
                for (d, dim) in slice.iter().zip(ty.shape()) {
                    match d {
                        DimIndex::Fix(i) => self.expect_i64(scope, i, "index")?,
                        DimIndex::Range {
                            start,
                            length,
                            stride,
                        } => {
                            self.expect_i64(scope, start, "slice start")?;
                            self.expect_i64(scope, length, "slice length")?;
                            self.expect_i64(scope, stride, "slice stride")?;
                            shape.push(length.clone());
                        }
                    }
                    let _ = dim;
                }
                shape.extend(ty.shape()[slice.len()..].iter().cloned());
                Ok(vec![make_type(ty.element(), shape).to_ext()])
            }
            Exp::Update {
                array,
                indices,
                value,
            } => {
                let ty = self.array_type(scope, array)?;
                if indices.len() > ty.rank() {
                    return Err(self.error(format!(
                        "{} indices into {array} of rank {}",
                        indices.len(),
                        ty.rank()
                    )));
                }
                for i in indices {
                    self.expect_i64(scope, i, "index")?;
                }
                self.expect_subexp(scope, value, &drop_dims(&ty, indices.len()))?;
                Ok(vec![ty.to_ext()])
            }
            Exp::Iota {
                length,
                start,
                step,
                element,
            } => {
                if !element.is_integer() {
                    return Err(self.error(format!("iota of non-integer type {element}")));
                }
                self.expect_i64(scope, length, "iota length")?;
                self.expect_subexp(scope, start, &Type::Prim(*element))?;
                self.expect_subexp(scope, step, &Type::Prim(*element))?;
                Ok(vec![ExtType::Array {
                    element: *element,
                    shape: vec![ExtDim::Free(length.clone())],
                }])
            }
            Exp::Replicate { shape, value } => {
                if shape.is_empty() {
                    return Err(self.error("replicate with no dimension".to_string()));
                }
                for d in shape {
                    self.check_dim(scope, d)?;
                }
                let vty = self.subexp_type(scope, value)?;
                let mut full = shape.clone();
                full.extend(vty.shape().iter().cloned());
                Ok(vec![make_type(vty.element(), full).to_ext()])
            }
            Exp::ArrayLiteral { elements, row_type } => {
                self.check_type(scope, row_type)?;
                for e in elements {
                    self.expect_subexp(scope, e, row_type)?;
                }
                Ok(vec![row_type
                    .clone()
                    .array_of(SubExp::i64(elements.len() as i64))
                    .to_ext()])
            }
            Exp::Concat { arrays, length } => {
                self.check_dim(scope, length)?;
                let Some(first) = arrays.first() else {
                    return Err(self.error("concat of no arrays".to_string()));
                };
                let first_ty = self.array_type(scope, first)?;
                for a in &arrays[1..] {
                    let ty = self.array_type(scope, a)?;
                    if ty.element() != first_ty.element()
                        || ty.shape()[1..] != first_ty.shape()[1..]
                    {
                        return Err(self.error(format!(
                            "concat of {first}: {first_ty} and {a}: {ty} (rows differ)"
                        )));
                    }
                }
                let mut shape = vec![length.clone()];
                shape.extend(first_ty.shape()[1..].iter().cloned());
                Ok(vec![make_type(first_ty.element(), shape).to_ext()])
            }
            Exp::Rearrange { permutation, array } => {
                let ty = self.array_type(scope, array)?;
                let mut sorted = permutation.clone();
                sorted.sort_unstable();
                if sorted != (0..ty.rank()).collect::<Vec<_>>() {
                    return Err(self.error(format!(
                        "({}) is not a permutation of the {} dimensions of {array}",
                        commas(permutation),
                        ty.rank()
                    )));
                }
                let shape = permutation.iter().map(|&i| ty.shape()[i].clone()).collect();
                Ok(vec![make_type(ty.element(), shape).to_ext()])
            }
            Exp::Reshape { shape, array } => {
                let ty = self.array_type(scope, array)?;
                if shape.is_empty() {
                    return Err(self.error("reshape to no dimension".to_string()));
                }
                for d in shape {
                    self.check_dim(scope, d)?;
                }
                Ok(vec![make_type(ty.element(), shape.clone()).to_ext()])
            }
            Exp::Reverse { array } | Exp::Copy { array } => {
                Ok(vec![self.array_type(scope, array)?.to_ext()])
            }
            Exp::Rotate { amount, array } => {
                self.expect_i64(scope, amount, "rotation")?;
                Ok(vec![self.array_type(scope, array)?.to_ext()])
            }
            Exp::Assert {
                condition,
                message,
                operands,
                ..
            } => {
                self.expect_subexp(scope, condition, &Type::Prim(PrimType::Bool))?;
                for operand in operands {
                    self.subexp_type(scope, operand)?;
                }
                if operands.len() != super::message::placeholder_count(message) {
                    return Err(self.error(format!(
                        "the assertion message {message:?} has {} operands for its placeholders",
                        operands.len()
                    )));
                }
                Ok(Vec::new())
            }
            Exp::Soac(soac) => self.check_soac(scope, soac),
            Exp::Seg(op) => self.check_seg_op(scope, op),
        }
    }

    /// A segmented operation ([`super::segmented`]): a non-empty space of
    /// sizes in the outer scope, result types and operator in the outer
    /// scope, and a body that returns the operation's point types with the
    /// indices bound.
    fn check_seg_op(
        &mut self,
        scope: &Scope<VName, Type>,
        op: &SegOp,
    ) -> CheckResult<Vec<ExtType>> {
        let space = op.space();
        if space.dims.is_empty() {
            return Err(self.error(format!("{} has an empty index space", op.keyword())));
        }
        for dim in &space.dims {
            self.check_dim(scope, &dim.size)?;
        }
        match op {
            SegOp::Map { return_types, .. } => {
                for t in return_types {
                    self.check_type(scope, t)?;
                }
            }
            SegOp::Red {
                operator, neutral, ..
            }
            | SegOp::Scan {
                operator, neutral, ..
            } => {
                self.check_operator(scope, operator, neutral, "the segmented operator")?;
            }
        }
        let mut inner = scope.clone();
        for dim in &space.dims {
            self.bind_fresh(
                &mut inner,
                &Param {
                    name: dim.index.clone(),
                    ty: i64_type(),
                },
            )?;
        }
        let span = self.span;
        let types = self.check_body(&inner, op.body())?;
        self.span = span;
        let expected: Vec<ExtType> = op.body_types().iter().map(Type::to_ext).collect();
        self.match_results(&expected, &op.body().result, &types, op.keyword())?;
        Ok(op.result_types().iter().map(Type::to_ext).collect())
    }

    fn check_binop(&self, op: BinOp, ty: PrimType) -> CheckResult<()> {
        let ok = match op {
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Mod
            | BinOp::Pow
            | BinOp::Min
            | BinOp::Max
            | BinOp::Quot
            | BinOp::Rem => ty != PrimType::Bool,
            BinOp::Shl | BinOp::Shr | BinOp::UShr => ty.is_integer(),
            BinOp::Atan2 => ty.is_float(),
            BinOp::MulHi => ty.is_integer(),
            BinOp::And | BinOp::Or | BinOp::Xor => !ty.is_float(),
            BinOp::LogAnd | BinOp::LogOr => ty == PrimType::Bool,
        };
        if !ok {
            return Err(self.error(format!("{} is not defined on {ty}", op.name())));
        }
        Ok(())
    }

    /// The result type of `op` at `ty`.
    fn check_unop(&self, op: UnOp, ty: PrimType) -> CheckResult<PrimType> {
        op.result_type(ty)
            .ok_or_else(|| self.error(format!("{} is not defined on {ty}", op.name())))
    }

    fn check_apply(
        &mut self,
        scope: &Scope<VName, Type>,
        name: &FunName,
        args: &[SubExp],
    ) -> CheckResult<Vec<ExtType>> {
        let function = *self
            .functions
            .get(name)
            .ok_or_else(|| self.error(format!("call of unknown function {name}")))?;
        if function.params.len() != args.len() {
            return Err(self.error(format!(
                "{name} takes {} arguments, given {}",
                function.params.len(),
                args.len()
            )));
        }
        let substitution: HashMap<VName, SubExp> = function
            .params
            .iter()
            .map(|p| p.name.clone())
            .zip(args.iter().cloned())
            .collect();
        for (p, a) in function.params.iter().zip(args) {
            let expected = substitute_type(&p.ty, &substitution);
            let actual = self.subexp_type(scope, a)?;
            if actual != expected {
                return Err(self.error(format!(
                    "argument {a} of {name} has type {actual}, expected {expected} (parameter {})",
                    p.name
                )));
            }
        }
        Ok(function
            .return_types
            .iter()
            .map(|t| substitute_ext_type(t, &substitution))
            .collect())
    }

    fn check_loop(
        &mut self,
        scope: &Scope<VName, Type>,
        params: &[(Param, SubExp)],
        form: &LoopForm,
        body: &Body,
    ) -> CheckResult<Vec<ExtType>> {
        // Parameter types may refer to earlier parameters; the initial values
        // must match them with earlier parameters replaced by their initial
        // values.
        let mut inner = scope.clone();
        let mut initial: HashMap<VName, SubExp> = HashMap::new();
        let mut param_types = Vec::new();
        for (p, init) in params {
            self.check_type(&inner, &p.ty)?;
            let expected = substitute_type(&p.ty, &initial);
            let actual = self.subexp_type(scope, init)?;
            if actual != expected {
                return Err(self.error(format!(
                    "the initial value {init} of loop parameter {} has type {actual}, expected \
                     {expected}",
                    p.name
                )));
            }
            initial.insert(p.name.clone(), init.clone());
            self.bind_fresh(&mut inner, p)?;
            param_types.push(p.ty.clone());
        }
        match form {
            LoopForm::For { index, bound } => {
                let bound_type = self.subexp_type(scope, bound)?;
                if !bound_type.element().is_integer() || bound_type.rank() != 0 {
                    return Err(self.error(format!(
                        "the loop bound {bound} has type {bound_type}, expected an integer"
                    )));
                }
                self.bind_fresh(
                    &mut inner,
                    &Param {
                        name: index.clone(),
                        ty: bound_type,
                    },
                )?;
            }
            LoopForm::While { condition_param } => {
                let found = params.iter().find(|(p, _)| &p.name == condition_param);
                match found {
                    Some((p, _)) if p.ty == Type::Prim(PrimType::Bool) => {}
                    _ => {
                        return Err(self.error(format!(
                            "the while condition {condition_param} is not a bool loop parameter"
                        )))
                    }
                }
            }
        }
        // The loop's result types: parameter dimensions that name earlier
        // parameters are existential (they vary between iterations).
        let positions: HashMap<&VName, usize> = params
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (&p.name, i))
            .collect();
        let ext_types: Vec<ExtType> = param_types
            .iter()
            .map(|t| match t {
                Type::Prim(p) => ExtType::Prim(*p),
                Type::Array { element, shape } => ExtType::Array {
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
            .collect();
        let span = self.span;
        let types = self.check_body(&inner, body)?;
        self.span = span;
        self.match_results(&ext_types, &body.result, &types, "the loop body")?;
        Ok(ext_types)
    }

    /// Checks a lambda's body against its return types (which must be in the
    /// outer scope) and returns its parameter and return types.
    fn check_lambda(&mut self, scope: &Scope<VName, Type>, lambda: &Lambda) -> CheckResult<()> {
        for t in &lambda.return_types {
            self.check_type(scope, t)?;
        }
        let mut inner = scope.clone();
        for p in &lambda.params {
            self.check_type(&inner, &p.ty)?;
            self.bind_fresh(&mut inner, p)?;
        }
        let span = self.span;
        let types = self.check_body(&inner, &lambda.body)?;
        self.span = span;
        let expected: Vec<ExtType> = lambda.return_types.iter().map(Type::to_ext).collect();
        self.match_results(&expected, &lambda.body.result, &types, "the lambda")
    }

    /// The row types of `arrays`, each of outer dimension `width`.
    fn soac_inputs(
        &self,
        scope: &Scope<VName, Type>,
        width: &SubExp,
        arrays: &[VName],
    ) -> CheckResult<Vec<Type>> {
        self.check_dim(scope, width)?;
        arrays
            .iter()
            .map(|a| {
                let ty = self.array_type(scope, a)?;
                if ty.outer_dim() != Some(width) {
                    return Err(self.error(format!(
                        "{a} has type {ty}, but the SOAC's width is {width}"
                    )));
                }
                Ok(ty.row_type().expect("an array"))
            })
            .collect()
    }

    fn expect_params(&self, lambda: &Lambda, expected: &[Type], what: &str) -> CheckResult<()> {
        let actual: Vec<Type> = lambda.params.iter().map(|p| p.ty.clone()).collect();
        if actual != expected {
            return Err(self.error(format!(
                "{what} takes {{{}}}, expected {{{}}}",
                commas(&actual),
                commas(expected)
            )));
        }
        Ok(())
    }

    /// An associative operator on `k` values: `(a…, a…) -> a…` with neutral
    /// elements of types `a…`; returns `a…`.
    fn check_operator(
        &mut self,
        scope: &Scope<VName, Type>,
        operator: &Lambda,
        neutral: &[SubExp],
        what: &str,
    ) -> CheckResult<Vec<Type>> {
        self.check_lambda(scope, operator)?;
        let element_types = operator.return_types.clone();
        let doubled: Vec<Type> = element_types
            .iter()
            .chain(&element_types)
            .cloned()
            .collect();
        self.expect_params(operator, &doubled, what)?;
        if neutral.len() != element_types.len() {
            return Err(self.error(format!(
                "{what} has {} neutral elements for {} values",
                neutral.len(),
                element_types.len()
            )));
        }
        for (n, t) in neutral.iter().zip(&element_types) {
            self.expect_subexp(scope, n, t)?;
        }
        Ok(element_types)
    }

    fn expect_types(&self, actual: &[Type], expected: &[Type], what: &str) -> CheckResult<()> {
        if actual != expected {
            return Err(self.error(format!(
                "{what} has types {{{}}}, expected {{{}}}",
                commas(actual),
                commas(expected)
            )));
        }
        Ok(())
    }

    fn check_soac(&mut self, scope: &Scope<VName, Type>, soac: &Soac) -> CheckResult<Vec<ExtType>> {
        let arrays_of = |width: &SubExp, types: &[Type]| -> Vec<ExtType> {
            types
                .iter()
                .map(|t| t.clone().array_of(width.clone()).to_ext())
                .collect()
        };
        match soac {
            Soac::Map {
                width,
                lambda,
                arrays,
            } => {
                let rows = self.soac_inputs(scope, width, arrays)?;
                self.check_lambda(scope, lambda)?;
                self.expect_params(lambda, &rows, "the map lambda")?;
                Ok(arrays_of(width, &lambda.return_types))
            }
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
                let rows = self.soac_inputs(scope, width, arrays)?;
                let types = self.check_operator(scope, lambda, neutral, "the operator")?;
                self.expect_types(&rows, &types, "the input rows")?;
                Ok(if matches!(soac, Soac::Reduce { .. }) {
                    types.iter().map(Type::to_ext).collect()
                } else {
                    arrays_of(width, &types)
                })
            }
            Soac::Filter {
                width,
                predicate,
                arrays,
            } => {
                let rows = self.soac_inputs(scope, width, arrays)?;
                self.check_lambda(scope, predicate)?;
                self.expect_params(predicate, &rows, "the filter predicate")?;
                self.expect_types(
                    &predicate.return_types,
                    &[Type::Prim(PrimType::Bool)],
                    "the filter predicate's result",
                )?;
                let mut types = vec![ExtType::Prim(PrimType::I64)];
                for row in &rows {
                    let ext = match row.to_ext() {
                        ExtType::Prim(t) => ExtType::Array {
                            element: t,
                            shape: vec![ExtDim::Existential(0)],
                        },
                        ExtType::Array { element, mut shape } => {
                            shape.insert(0, ExtDim::Existential(0));
                            ExtType::Array { element, shape }
                        }
                    };
                    types.push(ext);
                }
                Ok(types)
            }
            Soac::Scatter {
                width,
                destinations,
                indices,
                values,
            } => {
                let index_rows = self.soac_inputs(scope, width, std::slice::from_ref(indices))?;
                self.expect_types(&index_rows, &[i64_type()], "the scatter indices' elements")?;
                let value_rows = self.soac_inputs(scope, width, values)?;
                let destination_types = self.destinations(scope, destinations)?;
                let destination_rows: Vec<Type> = destination_types
                    .iter()
                    .map(|t| t.row_type().expect("an array"))
                    .collect();
                self.expect_types(&value_rows, &destination_rows, "the scattered values' rows")?;
                Ok(destination_types.iter().map(Type::to_ext).collect())
            }
            Soac::Hist {
                width,
                destinations,
                operator,
                neutral,
                indices,
                values,
            } => {
                let index_rows = self.soac_inputs(scope, width, std::slice::from_ref(indices))?;
                self.expect_types(
                    &index_rows,
                    &[i64_type()],
                    "the histogram indices' elements",
                )?;
                let value_rows = self.soac_inputs(scope, width, values)?;
                let destination_types = self.destinations(scope, destinations)?;
                let destination_rows: Vec<Type> = destination_types
                    .iter()
                    .map(|t| t.row_type().expect("an array"))
                    .collect();
                let types = self.check_operator(scope, operator, neutral, "the operator")?;
                self.expect_types(&destination_rows, &types, "the histogram bins")?;
                self.expect_types(&value_rows, &types, "the histogram values' rows")?;
                Ok(destination_types.iter().map(Type::to_ext).collect())
            }
            Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda: combine,
                neutral,
                arrays,
            }
            | Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda: combine,
                neutral,
                arrays,
            } => {
                let rows = self.soac_inputs(scope, width, arrays)?;
                self.check_lambda(scope, map_lambda)?;
                self.expect_params(map_lambda, &rows, "the map lambda")?;
                let types = self.check_operator(scope, combine, neutral, "the operator")?;
                let k = types.len();
                if map_lambda.return_types.len() < k {
                    return Err(self.error(format!(
                        "the map lambda returns {} values, fewer than the operator's {k}",
                        map_lambda.return_types.len()
                    )));
                }
                self.expect_types(
                    &map_lambda.return_types[..k],
                    &types,
                    "the map lambda's first results",
                )?;
                let mapped = arrays_of(width, &map_lambda.return_types[k..]);
                let mut result: Vec<ExtType> = if matches!(soac, Soac::Redomap { .. }) {
                    types.iter().map(Type::to_ext).collect()
                } else {
                    arrays_of(width, &types)
                };
                result.extend(mapped);
                Ok(result)
            }
        }
    }

    fn destinations(
        &self,
        scope: &Scope<VName, Type>,
        destinations: &[VName],
    ) -> CheckResult<Vec<Type>> {
        let types = destinations
            .iter()
            .map(|d| self.array_type(scope, d))
            .collect::<CheckResult<Vec<_>>>()?;
        if let Some(first) = types.first() {
            for (d, t) in destinations.iter().zip(&types) {
                if t.outer_dim() != first.outer_dim() {
                    return Err(self.error(format!(
                        "destination {d}: {t} differs in length from {}: {first}",
                        destinations[0]
                    )));
                }
            }
        }
        Ok(types)
    }

    fn check_entry_point(&self, entry: &EntryPoint) -> CheckResult<()> {
        let function = *self
            .functions
            .get(&entry.function)
            .ok_or_else(|| self.error(format!("unknown function {}", entry.function)))?;
        let sizes = function
            .params
            .get(..entry.size_parameters)
            .ok_or_else(|| self.error("more size parameters than parameters".to_string()))?;
        let values = &function.params[entry.size_parameters..];
        for size in sizes {
            if size.ty != i64_type() {
                return Err(self.error(format!("size parameter {} is not an i64", size.name)));
            }
            let used = values
                .iter()
                .any(|p| p.ty.shape().contains(&SubExp::Var(size.name.clone())));
            if !used {
                return Err(self.error(format!(
                    "size parameter {} is no dimension of a value parameter",
                    size.name
                )));
            }
        }
        let mut value_types: Vec<(PrimType, usize)> = Vec::new();
        for p in &entry.parameters {
            flatten_layout(&p.layout, 0, &mut value_types);
        }
        let actual: Vec<(PrimType, usize)> = values
            .iter()
            .map(|p| (p.ty.element(), p.ty.rank()))
            .collect();
        if actual != value_types {
            return Err(self.error(format!(
                "the parameters' layouts flatten to {}, but {} takes {}",
                describe(&value_types),
                function.name,
                describe(&actual)
            )));
        }
        let size_results = function
            .return_types
            .get(..entry.size_results)
            .ok_or_else(|| self.error("more size results than results".to_string()))?;
        if size_results
            .iter()
            .any(|t| t != &ExtType::Prim(PrimType::I64))
        {
            return Err(self.error("a size result is not an i64".to_string()));
        }
        let mut result_types = Vec::new();
        flatten_layout(&entry.result, 0, &mut result_types);
        let actual: Vec<(PrimType, usize)> = function.return_types[entry.size_results..]
            .iter()
            .map(|t| (t.element(), t.rank()))
            .collect();
        if actual != result_types {
            return Err(self.error(format!(
                "the result layout flattens to {}, but {} returns {}",
                describe(&result_types),
                function.name,
                describe(&actual)
            )));
        }
        Ok(())
    }
}

/// The type `[shape]element` (a primitive when `shape` is empty).
fn make_type(element: PrimType, shape: Vec<SubExp>) -> Type {
    if shape.is_empty() {
        Type::Prim(element)
    } else {
        Type::Array { element, shape }
    }
}

/// `ty` without its `n` outer dimensions.
fn drop_dims(ty: &Type, n: usize) -> Type {
    make_type(ty.element(), ty.shape()[n..].to_vec())
}

/// The (element type, rank) of each IR value a layout flattens to, under
/// `rank` enclosing array dimensions.
pub fn flatten_layout(layout: &Layout, rank: usize, out: &mut Vec<(PrimType, usize)>) {
    match layout {
        Layout::Prim(t) => out.push((*t, rank)),
        Layout::Tuple(components) => {
            for c in components {
                flatten_layout(c, rank, out);
            }
        }
        Layout::Record(fields) => {
            for (_, l) in fields {
                flatten_layout(l, rank, out);
            }
        }
        Layout::Sum { constructors } => {
            out.push((SUM_TAG_TYPE, rank));
            for (_, payload) in constructors {
                for l in payload {
                    flatten_layout(l, rank, out);
                }
            }
        }
        Layout::Array {
            rank: inner,
            element,
        } => flatten_layout(element, rank + inner, out),
    }
}

fn describe(values: &[(PrimType, usize)]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|(t, r)| format!("{}{t}", "[]".repeat(*r)))
        .collect();
    format!("{{{}}}", items.join(", "))
}
