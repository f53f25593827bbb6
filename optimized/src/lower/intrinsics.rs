//! Lowering of the core's intrinsics: SOACs (with their lambdas), array
//! functions and the numeric modules' functions.

use spec::source::Span;
use spec::value::PrimType;

use super::{
    drop_dims, internal, leaf_type, unsupported, zero_of, Block, Env, LowerResult, Lowerer, Values,
};
use crate::core::{self, ExprKind, Intrinsic};
use crate::ir::{
    self, Body, CmpOp, Exp, ExtDim, ExtType, Lambda, Param, PrimValue, Soac, SubExp, VName,
};

/// The run-time error of `zip` (and of `map2` … `map5`, which zip their
/// arrays) over arrays of different sizes: the reference's wording.
const ZIP_SIZES_DIFFER: &str = "Sizes [{number}] and [{number}] do not match in zip.";

/// The run-time error of arrays of one SOAC argument (the leaves of one
/// value) with different outer sizes, which a checked program never has.
const SIZES_DIFFER: &str = "Sizes [{number}] and [{number}] do not match.";

/// A lambda lowered without its return types: parameters, statements,
/// results.
struct LoweredLambda {
    params: Vec<Param>,
    block: Block,
    results: Values,
    /// The first name number created for it: names at or above it are local.
    mark: u32,
}

pub(crate) fn var_name(value: &SubExp, span: Span) -> LowerResult<VName> {
    value
        .as_var()
        .cloned()
        .ok_or_else(|| internal(span, "an array operand that is a constant"))
}

impl Lowerer {
    fn next_number(&mut self) -> u32 {
        let probe = self.fresh("mark");
        probe.number
    }

    /// Lowers a core lambda whose `k`th parameter receives IR values of the
    /// types `groups[k]`.
    fn lower_lambda(
        &mut self,
        env: &Env,
        lambda: &core::Expr,
        groups: &[Vec<ir::Type>],
    ) -> LowerResult<LoweredLambda> {
        let ExprKind::Lambda { params, body } = &lambda.kind else {
            return Err(internal(
                lambda.span,
                "a SOAC's function is not a lambda after defunctionalisation",
            ));
        };
        if params.len() != groups.len() {
            return Err(internal(lambda.span, "a SOAC lambda of the wrong arity"));
        }
        let mark = self.next_number();
        let mut inner = env.clone();
        let mut block = Block::new();
        let mut ir_params = Vec::new();
        for (pat, types) in params.iter().zip(groups) {
            let mut values = Vec::new();
            for ty in types {
                let p = self.param("x", ty.clone());
                values.push(SubExp::Var(p.name.clone()));
                ir_params.push(p);
            }
            self.bind_pattern(&mut inner, pat, values)?;
        }
        let results = self.expression(&inner, &mut block, body)?;
        Ok(LoweredLambda {
            params: ir_params,
            block,
            results,
            mark,
        })
    }

    /// A lowered lambda whose results are made to have `expected` types.
    fn finish_lambda(
        &mut self,
        mut lowered: LoweredLambda,
        expected: &[ir::Type],
        span: Span,
    ) -> Lambda {
        let mut results = Vec::new();
        for (value, ty) in lowered.results.iter().zip(expected) {
            let value = if ty.rank() > 0 {
                self.coerce_shape(
                    &mut lowered.block,
                    value.clone(),
                    ty.shape(),
                    "Size mismatch: a function's results have irregular sizes.",
                    span,
                )
            } else {
                value.clone()
            };
            results.push(value);
        }
        Lambda {
            params: lowered.params,
            body: Body {
                statements: lowered.block,
                result: results,
            },
            return_types: expected.to_vec(),
        }
    }

    /// The result types of a mapped lambda in the SOAC's scope. Dimensions
    /// computed inside the lambda are replaced by those of a probe: the
    /// lambda applied to the first rows, or, when `width` is 0, to blank rows
    /// (zeros of the rows' shape), so that a `map` over an empty array has
    /// the row shape its function gives (as the reference's E-Map probe,
    /// SPEC_NOTES TFP18-6).
    #[allow(clippy::too_many_arguments)]
    fn map_result_types(
        &mut self,
        env: &Env,
        block: &mut Block,
        lambda: &core::Expr,
        lowered: &LoweredLambda,
        inputs: &[Vec<SubExp>],
        width: &SubExp,
        span: Span,
    ) -> LowerResult<Vec<ir::Type>> {
        let types: Vec<ir::Type> = lowered.results.iter().map(|r| self.type_of(r)).collect();
        let mark = lowered.mark;
        let is_local = |d: &SubExp| matches!(d, SubExp::Var(v) if v.number >= mark);
        if !types.iter().any(|t| t.shape().iter().any(is_local)) {
            return Ok(types);
        }
        // The probe: `if width == 0 then dims(lambda(blank rows)) else
        // dims(lambda(rows 0))`.
        let mut first_block = Block::new();
        let mut first_groups = Vec::new();
        let mut blank_block = Block::new();
        let mut blank_groups = Vec::new();
        for group in inputs {
            let mut first_rows = Vec::new();
            let mut blank_rows = Vec::new();
            for array in group {
                let ty = self.type_of(array);
                let name = var_name(array, span)?;
                let row_type = ty.row_type().expect("array");
                first_rows.push(self.bind(
                    &mut first_block,
                    "row",
                    row_type.clone(),
                    Exp::Index {
                        array: name,
                        indices: vec![SubExp::i64(0)],
                    },
                    span,
                ));
                blank_rows.push(self.blank_row(&mut blank_block, &row_type, span));
            }
            first_groups.push(first_rows);
            blank_groups.push(blank_rows);
        }
        let first_dims = self.probe_dims(
            env,
            &mut first_block,
            lambda,
            first_groups,
            &types,
            mark,
            span,
        )?;
        let blank_dims = self.probe_dims(
            env,
            &mut blank_block,
            lambda,
            blank_groups,
            &types,
            mark,
            span,
        )?;
        let empty = self.cmp(
            block,
            CmpOp::Eq,
            PrimType::I64,
            width.clone(),
            SubExp::i64(0),
            span,
        );
        let dims = self.bind_ext(
            block,
            &vec![ExtType::Prim(PrimType::I64); first_dims.len()],
            Exp::If {
                condition: empty,
                then_body: Body {
                    statements: blank_block,
                    result: blank_dims,
                },
                else_body: Body {
                    statements: first_block,
                    result: first_dims.clone(),
                },
                types: vec![ExtType::Prim(PrimType::I64); first_dims.len()],
            },
            span,
        );
        let mut next = dims.into_iter();
        Ok(types
            .into_iter()
            .map(|ty| {
                let shape: Vec<SubExp> = ty
                    .shape()
                    .iter()
                    .map(|d| {
                        if is_local(d) {
                            next.next().expect("one per local dimension")
                        } else {
                            d.clone()
                        }
                    })
                    .collect();
                leaf_type(ty.element(), shape)
            })
            .collect())
    }

    /// A row of zeros of type `row_type` (a probe's argument).
    fn blank_row(&mut self, block: &mut Block, row_type: &ir::Type, span: Span) -> SubExp {
        match row_type {
            ir::Type::Prim(t) => SubExp::Constant(zero_of(*t)),
            ir::Type::Array { element, shape } => self.bind(
                block,
                "blank_row",
                row_type.clone(),
                Exp::Replicate {
                    shape: shape.clone(),
                    value: SubExp::Constant(zero_of(*element)),
                },
                span,
            ),
        }
    }

    /// The lambda's body lowered into `block` with its parameters bound to
    /// `groups`: the dimensions of its results that stand for the local
    /// dimensions (names from `mark` on) of `types`.
    #[allow(clippy::too_many_arguments)]
    fn probe_dims(
        &mut self,
        env: &Env,
        block: &mut Block,
        lambda: &core::Expr,
        groups: Vec<Vec<SubExp>>,
        types: &[ir::Type],
        mark: u32,
        span: Span,
    ) -> LowerResult<Vec<SubExp>> {
        let ExprKind::Lambda { params, body } = &lambda.kind else {
            return Err(internal(span, "a SOAC's function is not a lambda"));
        };
        let mut inner = env.clone();
        for (pat, rows) in params.iter().zip(groups) {
            self.bind_pattern(&mut inner, pat, rows)?;
        }
        let results = self.expression(&inner, block, body)?;
        let mut dims = Vec::new();
        for (ty, value) in types.iter().zip(&results) {
            let probe_ty = self.type_of(value);
            for (d, p) in ty.shape().iter().zip(probe_ty.shape()) {
                if matches!(d, SubExp::Var(v) if v.number >= mark) {
                    dims.push(p.clone());
                }
            }
        }
        Ok(dims)
    }

    /// The arrays of a SOAC, each made `width` long (checked).
    /// The arrays of a SOAC's argument groups with their outer dimension
    /// made the first array's: each other array's is checked against it,
    /// failing with `template`, whose two `{number}` placeholders
    /// ([`ir::message`]) receive the first array's size and the
    /// mismatching one's (the reference's wording names both).
    fn soac_arrays(
        &mut self,
        block: &mut Block,
        groups: Vec<Values>,
        template: &str,
        span: Span,
    ) -> LowerResult<(SubExp, Vec<Vec<SubExp>>)> {
        let width = groups
            .iter()
            .flatten()
            .find_map(|a| self.outer(a))
            .ok_or_else(|| unsupported(span, "a SOAC over arrays of empty records"))?;
        let mut out = Vec::new();
        for group in groups {
            let mut arrays = Vec::new();
            for array in group {
                let ty = self.type_of(&array);
                let actual = ty.shape()[0].clone();
                if actual == width {
                    arrays.push(array);
                    continue;
                }
                let same = self.cmp(
                    block,
                    CmpOp::Eq,
                    PrimType::I64,
                    actual.clone(),
                    width.clone(),
                    span,
                );
                self.assert_with_values(block, same, template, vec![width.clone(), actual], span);
                let mut shape = ty.shape().to_vec();
                shape[0] = width.clone();
                let name = var_name(&array, span)?;
                arrays.push(self.bind(
                    block,
                    "reshaped",
                    leaf_type(ty.element(), shape.clone()),
                    Exp::Reshape { shape, array: name },
                    span,
                ));
            }
            out.push(arrays);
        }
        Ok((width, out))
    }

    fn row_types(&self, arrays: &[SubExp]) -> Vec<ir::Type> {
        arrays
            .iter()
            .map(|a| self.type_of(a).row_type().expect("an array"))
            .collect()
    }

    fn names(&self, arrays: &[SubExp], span: Span) -> LowerResult<Vec<VName>> {
        arrays.iter().map(|a| var_name(a, span)).collect()
    }

    pub(crate) fn intrinsic(
        &mut self,
        env: &Env,
        block: &mut Block,
        e: &core::Expr,
        intrinsic: &Intrinsic,
        _type_args: &[core::Type],
        args: &[core::Expr],
    ) -> LowerResult<Values> {
        let span = e.span;
        let result_leaves = super::leaves(&e.ty, span)?;
        match intrinsic {
            Intrinsic::Map { arity } => {
                let mut groups = Vec::new();
                for arg in &args[1..=*arity] {
                    groups.push(self.expression(env, block, arg)?);
                }
                let (width, groups) = self.soac_arrays(block, groups, ZIP_SIZES_DIFFER, span)?;
                let row_groups: Vec<Vec<ir::Type>> =
                    groups.iter().map(|g| self.row_types(g)).collect();
                let lowered = self.lower_lambda(env, &args[0], &row_groups)?;
                let result_types =
                    self.map_result_types(env, block, &args[0], &lowered, &groups, &width, span)?;
                let lambda = self.finish_lambda(lowered, &result_types, span);
                let arrays = self.names(&groups.concat(), span)?;
                let types: Vec<ExtType> = result_types
                    .iter()
                    .map(|t| t.clone().array_of(width.clone()).to_ext())
                    .collect();
                Ok(self.bind_ext(
                    block,
                    &types,
                    Exp::Soac(Soac::Map {
                        width,
                        lambda,
                        arrays,
                    }),
                    span,
                ))
            }
            Intrinsic::Reduce | Intrinsic::ReduceComm | Intrinsic::Scan => {
                let neutral = self.expression(env, block, &args[1])?;
                let arrays = self.expression(env, block, &args[2])?;
                let (width, groups) = self.soac_arrays(block, vec![arrays], SIZES_DIFFER, span)?;
                let arrays = groups.into_iter().next().unwrap_or_default();
                let rows = self.row_types(&arrays);
                let neutral = self.coerce_all(block, neutral, &rows, span);
                let lowered = self.lower_lambda(env, &args[0], &[rows.clone(), rows.clone()])?;
                let lambda = self.finish_lambda(lowered, &rows, span);
                let names = self.names(&arrays, span)?;
                if matches!(intrinsic, Intrinsic::Scan) {
                    let types: Vec<ExtType> = rows
                        .iter()
                        .map(|t| t.clone().array_of(width.clone()).to_ext())
                        .collect();
                    Ok(self.bind_ext(
                        block,
                        &types,
                        Exp::Soac(Soac::Scan {
                            width,
                            lambda,
                            neutral,
                            arrays: names,
                        }),
                        span,
                    ))
                } else {
                    let types: Vec<ExtType> = rows.iter().map(ir::Type::to_ext).collect();
                    Ok(self.bind_ext(
                        block,
                        &types,
                        Exp::Soac(Soac::Reduce {
                            width,
                            lambda,
                            neutral,
                            arrays: names,
                        }),
                        span,
                    ))
                }
            }
            Intrinsic::Filter => {
                let arrays = self.expression(env, block, &args[1])?;
                Ok(self.filter(env, block, &args[0], arrays, false, span)?)
            }
            Intrinsic::Partition => {
                let arrays = self.expression(env, block, &args[1])?;
                let mut yes = self.filter(env, block, &args[0], arrays.clone(), false, span)?;
                let no = self.filter(env, block, &args[0], arrays, true, span)?;
                yes.extend(no);
                Ok(yes)
            }
            Intrinsic::Scatter => {
                let destinations = self.expression(env, block, &args[0])?;
                let indices = self.expression(env, block, &args[1])?;
                let values = self.expression(env, block, &args[2])?;
                let (width, groups) = self.soac_arrays(
                    block,
                    vec![indices, values],
                    "Sizes of indices ({number}) and values ({number}) do not match in scatter.",
                    span,
                )?;
                let indices = var_name(&groups[0][0], span)?;
                let values = self.names(&groups[1], span)?;
                let types: Vec<ExtType> = destinations
                    .iter()
                    .map(|d| self.type_of(d).to_ext())
                    .collect();
                let destinations = self.names(&destinations, span)?;
                Ok(self.bind_ext(
                    block,
                    &types,
                    Exp::Soac(Soac::Scatter {
                        width,
                        destinations,
                        indices,
                        values,
                    }),
                    span,
                ))
            }
            Intrinsic::ReduceByIndex => {
                let destinations = self.expression(env, block, &args[0])?;
                let neutral = self.expression(env, block, &args[2])?;
                let indices = self.expression(env, block, &args[3])?;
                let values = self.expression(env, block, &args[4])?;
                let (width, groups) = self.soac_arrays(
                    block,
                    vec![indices, values],
                    "Sizes of indices ({number}) and values ({number}) do not match.",
                    span,
                )?;
                let rows = self.row_types(&destinations);
                let neutral = self.coerce_all(block, neutral, &rows, span);
                let lowered = self.lower_lambda(env, &args[1], &[rows.clone(), rows.clone()])?;
                let operator = self.finish_lambda(lowered, &rows, span);
                let value_types: Vec<ir::Type> = rows
                    .iter()
                    .map(|r| r.clone().array_of(width.clone()))
                    .collect();
                let values = self.coerce_all(block, groups[1].clone(), &value_types, span);
                let types: Vec<ExtType> = destinations
                    .iter()
                    .map(|d| self.type_of(d).to_ext())
                    .collect();
                let destinations = self.names(&destinations, span)?;
                let indices = var_name(&groups[0][0], span)?;
                let values = self.names(&values, span)?;
                Ok(self.bind_ext(
                    block,
                    &types,
                    Exp::Soac(Soac::Hist {
                        width,
                        destinations,
                        operator,
                        neutral,
                        indices,
                        values,
                    }),
                    span,
                ))
            }
            Intrinsic::Iota => {
                let n = self.expression(env, block, &args[0])?[0].clone();
                let n = self.convert(block, n, PrimType::I64, span);
                let ok = self.cmp(
                    block,
                    CmpOp::Ge,
                    PrimType::I64,
                    n.clone(),
                    SubExp::i64(0),
                    span,
                );
                self.assert_with_values(
                    block,
                    ok,
                    "Range 0..1..<{number} is invalid.",
                    vec![n.clone()],
                    span,
                );
                let element = result_leaves[0].prim;
                let start = SubExp::Constant(super::zero_of(element));
                let step = self.convert(block, SubExp::i64(1), element, span);
                Ok(vec![self.bind(
                    block,
                    "iota",
                    leaf_type(element, vec![n.clone()]),
                    Exp::Iota {
                        length: n,
                        start,
                        step,
                        element,
                    },
                    span,
                )])
            }
            Intrinsic::Replicate => {
                let n = self.expression(env, block, &args[0])?[0].clone();
                let n = self.convert(block, n, PrimType::I64, span);
                let ok = self.cmp(
                    block,
                    CmpOp::Ge,
                    PrimType::I64,
                    n.clone(),
                    SubExp::i64(0),
                    span,
                );
                self.assert_with_values(
                    block,
                    ok,
                    "Cannot replicate a negative number ({number}) of times.",
                    vec![n.clone()],
                    span,
                );
                let values = self.expression(env, block, &args[1])?;
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value).array_of(n.clone());
                    out.push(self.bind(
                        block,
                        "rep",
                        ty,
                        Exp::Replicate {
                            shape: vec![n.clone()],
                            value,
                        },
                        span,
                    ));
                }
                Ok(out)
            }
            Intrinsic::Zip { .. } => {
                let mut groups = Vec::new();
                for arg in args {
                    groups.push(self.expression(env, block, arg)?);
                }
                let (_, groups) = self.soac_arrays(block, groups, ZIP_SIZES_DIFFER, span)?;
                Ok(groups.concat())
            }
            Intrinsic::Unzip { .. } | Intrinsic::Copy => {
                let values = self.expression(env, block, &args[0])?;
                if matches!(intrinsic, Intrinsic::Unzip { .. }) {
                    return Ok(values);
                }
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value);
                    let array = var_name(&value, span)?;
                    out.push(self.bind(block, "copy", ty, Exp::Copy { array }, span));
                }
                Ok(out)
            }
            Intrinsic::Assert => {
                let condition = self.expression(env, block, &args[0])?[0].clone();
                self.assert(block, condition, spec::syntax::ast::ASSERTION_FAILED, span);
                self.expression(env, block, &args[1])
            }
            Intrinsic::Length => {
                let values = self.expression(env, block, &args[0])?;
                let length = values
                    .first()
                    .and_then(|v| self.outer(v))
                    .ok_or_else(|| unsupported(span, "the length of an array of empty records"))?;
                Ok(vec![length])
            }
            Intrinsic::Concat => {
                let xs = self.expression(env, block, &args[0])?;
                let ys = self.expression(env, block, &args[1])?;
                let mut out = Vec::new();
                for (x, y) in xs.into_iter().zip(ys) {
                    let tx = self.type_of(&x);
                    let ty = self.type_of(&y);
                    let mut shape = tx.shape().to_vec();
                    shape[0] = ty.shape()[0].clone();
                    let y = self.coerce_shape(
                        block,
                        y,
                        &shape,
                        "Size mismatch: the rows of concatenated arrays differ.",
                        span,
                    );
                    let length = self.binop(
                        block,
                        ir::BinOp::Add,
                        PrimType::I64,
                        tx.shape()[0].clone(),
                        shape[0].clone(),
                        span,
                    );
                    let mut result_shape = tx.shape().to_vec();
                    result_shape[0] = length.clone();
                    let arrays = vec![var_name(&x, span)?, var_name(&y, span)?];
                    out.push(self.bind(
                        block,
                        "concat",
                        leaf_type(tx.element(), result_shape),
                        Exp::Concat { arrays, length },
                        span,
                    ));
                }
                Ok(out)
            }
            Intrinsic::Flatten => {
                let values = self.expression(env, block, &args[0])?;
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value);
                    let n = self.binop(
                        block,
                        ir::BinOp::Mul,
                        PrimType::I64,
                        ty.shape()[0].clone(),
                        ty.shape()[1].clone(),
                        span,
                    );
                    let mut shape = vec![n];
                    shape.extend(ty.shape()[2..].iter().cloned());
                    let array = var_name(&value, span)?;
                    out.push(self.bind(
                        block,
                        "flat",
                        leaf_type(ty.element(), shape.clone()),
                        Exp::Reshape { shape, array },
                        span,
                    ));
                }
                Ok(out)
            }
            Intrinsic::Unflatten => {
                let n = self.expression(env, block, &args[0])?[0].clone();
                let m = self.expression(env, block, &args[1])?[0].clone();
                let values = self.expression(env, block, &args[2])?;
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value);
                    let total = self.binop(
                        block,
                        ir::BinOp::Mul,
                        PrimType::I64,
                        n.clone(),
                        m.clone(),
                        span,
                    );
                    let same = self.cmp(
                        block,
                        CmpOp::Eq,
                        PrimType::I64,
                        total,
                        ty.shape()[0].clone(),
                        span,
                    );
                    let mut valid = same;
                    for factor in [&n, &m] {
                        let non_negative = self.cmp(
                            block,
                            CmpOp::Ge,
                            PrimType::I64,
                            factor.clone(),
                            SubExp::Constant(PrimValue::I64(0)),
                            span,
                        );
                        valid = self.binop(
                            block,
                            ir::BinOp::LogAnd,
                            PrimType::Bool,
                            valid,
                            non_negative,
                            span,
                        );
                    }
                    // The reference's wording (`core::eval`, `Intrinsic::Unflatten`).
                    self.assert_with_values(
                        block,
                        valid,
                        "Cannot unflatten array of shape [{number}] to array of shape \
                         [{number}][{number}].",
                        vec![ty.shape()[0].clone(), n.clone(), m.clone()],
                        span,
                    );
                    let mut shape = vec![n.clone(), m.clone()];
                    shape.extend(ty.shape()[1..].iter().cloned());
                    let array = var_name(&value, span)?;
                    out.push(self.bind(
                        block,
                        "unflat",
                        leaf_type(ty.element(), shape.clone()),
                        Exp::Reshape { shape, array },
                        span,
                    ));
                }
                Ok(out)
            }
            Intrinsic::Transpose | Intrinsic::Reverse => {
                let values = self.expression(env, block, &args[0])?;
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value);
                    let array = var_name(&value, span)?;
                    if matches!(intrinsic, Intrinsic::Reverse) {
                        out.push(self.bind(block, "rev", ty, Exp::Reverse { array }, span));
                    } else {
                        let mut permutation: Vec<usize> = (0..ty.rank()).collect();
                        permutation.swap(0, 1);
                        let shape: Vec<SubExp> =
                            permutation.iter().map(|&k| ty.shape()[k].clone()).collect();
                        out.push(self.bind(
                            block,
                            "tr",
                            leaf_type(ty.element(), shape),
                            Exp::Rearrange { permutation, array },
                            span,
                        ));
                    }
                }
                Ok(out)
            }
            Intrinsic::Rotate => {
                let amount = self.expression(env, block, &args[0])?[0].clone();
                let amount = self.convert(block, amount, PrimType::I64, span);
                let values = self.expression(env, block, &args[1])?;
                let mut out = Vec::new();
                for value in values {
                    let ty = self.type_of(&value);
                    let array = var_name(&value, span)?;
                    out.push(self.bind(
                        block,
                        "rot",
                        ty,
                        Exp::Rotate {
                            amount: amount.clone(),
                            array,
                        },
                        span,
                    ));
                }
                Ok(out)
            }
            Intrinsic::Numeric {
                module, function, ..
            } => {
                let mut operands = Vec::new();
                for arg in args {
                    operands.extend(self.expression(env, block, arg)?);
                }
                self.numeric(block, *module, function, operands, span)
            }
        }
    }

    /// Values made to have the shapes of `types` (checked).
    fn coerce_all(
        &mut self,
        block: &mut Block,
        values: Values,
        types: &[ir::Type],
        span: Span,
    ) -> Values {
        values
            .into_iter()
            .zip(types)
            .map(|(v, t)| {
                if t.rank() > 0 && self.type_of(&v).rank() == t.rank() {
                    self.coerce_shape(
                        block,
                        v,
                        t.shape(),
                        "Size mismatch: the neutral element's shape differs from the rows'.",
                        span,
                    )
                } else {
                    v
                }
            })
            .collect()
    }

    /// `filter` (or, `negated`, the rows failing the predicate).
    fn filter(
        &mut self,
        env: &Env,
        block: &mut Block,
        predicate: &core::Expr,
        arrays: Values,
        negated: bool,
        span: Span,
    ) -> LowerResult<Values> {
        let (width, groups) = self.soac_arrays(block, vec![arrays], SIZES_DIFFER, span)?;
        let arrays = groups.into_iter().next().unwrap_or_default();
        let rows = self.row_types(&arrays);
        let mut lowered = self.lower_lambda(env, predicate, std::slice::from_ref(&rows))?;
        if negated {
            let result = lowered.results[0].clone();
            let not = self.bind(
                &mut lowered.block,
                "not",
                ir::Type::Prim(PrimType::Bool),
                Exp::UnOp {
                    op: ir::UnOp::Not,
                    ty: PrimType::Bool,
                    operand: result,
                },
                span,
            );
            lowered.results = vec![not];
        }
        let predicate = self.finish_lambda(lowered, &[ir::Type::Prim(PrimType::Bool)], span);
        let mut types = vec![ExtType::Prim(PrimType::I64)];
        for row in &rows {
            let mut shape = vec![ExtDim::Existential(0)];
            shape.extend(row.shape().iter().cloned().map(ExtDim::Free));
            types.push(ExtType::Array {
                element: row.element(),
                shape,
            });
        }
        let names = self.names(&arrays, span)?;
        let values = self.bind_ext(
            block,
            &types,
            Exp::Soac(Soac::Filter {
                width,
                predicate,
                arrays: names,
            }),
            span,
        );
        Ok(values[1..].to_vec())
    }

    /// A function or constant of a numeric module that is a primitive of
    /// the IR ([`numeric_primitive`]).
    fn numeric(
        &mut self,
        block: &mut Block,
        module: PrimType,
        function: &str,
        operands: Values,
        span: Span,
    ) -> LowerResult<Values> {
        let t = module;
        let Some(primitive) = numeric_primitive(t, function) else {
            return Err(unsupported(
                span,
                &format!("the numeric function `{}.{function}`", t.name()),
            ));
        };
        match primitive {
            NumericPrimitive::Convert { to } => {
                Ok(vec![self.convert(block, operands[0].clone(), to, span)])
            }
            NumericPrimitive::Unary(op) => {
                // The operand has the module's type, except `T.from_bits`'s,
                // an unsigned integer of T's width.
                let operand_type = match self.type_of(&operands[0]) {
                    ir::Type::Prim(operand_type) => operand_type,
                    _ => t,
                };
                let Some(result) = op.result_type(operand_type) else {
                    return Err(unsupported(
                        span,
                        &format!("`{}.{function}` on {operand_type}", t.name()),
                    ));
                };
                Ok(vec![self.bind(
                    block,
                    "u",
                    ir::Type::Prim(result),
                    Exp::UnOp {
                        op,
                        ty: operand_type,
                        operand: operands[0].clone(),
                    },
                    span,
                )])
            }
            // Operators (`T.+`, `T.==`, …) never come here: elaboration
            // makes them primitive operators (`Head::PrimOperator`).
            NumericPrimitive::Binary(op) => Ok(vec![self.binop(
                block,
                op,
                t,
                operands[0].clone(),
                operands[1].clone(),
                span,
            )]),
            NumericPrimitive::Fma => Ok(vec![self.bind(
                block,
                "fma",
                ir::Type::Prim(t),
                Exp::Fma {
                    ty: t,
                    a: operands[0].clone(),
                    b: operands[1].clone(),
                    c: operands[2].clone(),
                },
                span,
            )]),
            NumericPrimitive::Constant(value) => Ok(vec![SubExp::Constant(value)]),
            NumericPrimitive::Reduction { operator, neutral } => {
                let array = operands[0].clone();
                let ty = self.type_of(&array);
                let width = ty.shape()[0].clone();
                let x = self.param("x", ir::Type::Prim(t));
                let y = self.param("y", ir::Type::Prim(t));
                let mut lambda_block = Block::new();
                let r = self.binop(
                    &mut lambda_block,
                    operator,
                    t,
                    SubExp::Var(x.name.clone()),
                    SubExp::Var(y.name.clone()),
                    span,
                );
                let lambda = Lambda {
                    params: vec![x, y],
                    body: Body {
                        statements: lambda_block,
                        result: vec![r],
                    },
                    return_types: vec![ir::Type::Prim(t)],
                };
                let arrays = vec![var_name(&array, span)?];
                Ok(vec![self.bind(
                    block,
                    "red",
                    drop_dims(&ty, 1),
                    Exp::Soac(Soac::Reduce {
                        width,
                        lambda,
                        neutral: vec![SubExp::Constant(neutral)],
                        arrays,
                    }),
                    span,
                )])
            }
        }
    }
}

/// What a numeric module's function `T.function` is in the IR, where it is
/// one of its primitives; the others (`T.lerp`, `T.get_bit`, …) are
/// definitions of `spec/prelude/numeric.fut` in the language, which reach
/// the compiler through static interpretation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NumericPrimitive {
    /// `T.S x` (x: S) converts to T; `T.to_S x` converts to S.
    Convert {
        to: PrimType,
    },
    Unary(ir::UnOp),
    Binary(ir::BinOp),
    /// `T.fma a b c` (floats).
    Fma,
    Constant(PrimValue),
    /// `T.sum` & co.: a `reduce` with this operator and neutral element.
    Reduction {
        operator: ir::BinOp,
        neutral: PrimValue,
    },
}

/// `T.function` as a primitive of the IR, if it is one.
pub(crate) fn numeric_primitive(t: PrimType, function: &str) -> Option<NumericPrimitive> {
    use ir::BinOp as B;
    use ir::UnOp as U;
    if PrimType::from_name(function).is_some() {
        return Some(NumericPrimitive::Convert { to: t });
    }
    if let Some(target) = function.strip_prefix("to_").and_then(PrimType::from_name) {
        return Some(NumericPrimitive::Convert { to: target });
    }
    let unary = match function {
        "abs" => Some(U::Abs),
        "sgn" | "signum" => Some(U::Signum),
        "sqrt" => Some(U::Sqrt),
        "exp" => Some(U::Exp),
        "log" => Some(U::Log),
        "log2" => Some(U::Log2),
        "log10" => Some(U::Log10),
        "sin" => Some(U::Sin),
        "cos" => Some(U::Cos),
        "tan" => Some(U::Tan),
        "asin" => Some(U::Asin),
        "acos" => Some(U::Acos),
        "atan" => Some(U::Atan),
        "sinh" => Some(U::Sinh),
        "cosh" => Some(U::Cosh),
        "tanh" => Some(U::Tanh),
        "asinh" => Some(U::Asinh),
        "acosh" => Some(U::Acosh),
        "atanh" => Some(U::Atanh),
        "cbrt" => Some(U::Cbrt),
        "log1p" => Some(U::Log1p),
        "gamma" => Some(U::Gamma),
        "lgamma" => Some(U::Lgamma),
        "erf" => Some(U::Erf),
        "erfc" => Some(U::Erfc),
        "to_bits" => Some(U::ToBits),
        "from_bits" => Some(U::FromBits),
        "floor" => Some(U::Floor),
        "ceil" => Some(U::Ceil),
        "round" => Some(U::Round),
        "trunc" => Some(U::Trunc),
        "isnan" => Some(U::IsNan),
        "isinf" => Some(U::IsInf),
        "popc" => Some(U::Popc),
        "clz" => Some(U::Clz),
        "ctz" => Some(U::Ctz),
        "neg" => Some(U::Neg),
        "not" => Some(U::Not),
        _ => None,
    };
    if let Some(op) = unary {
        return Some(NumericPrimitive::Unary(op));
    }
    let binary = match function {
        "max" => Some(B::Max),
        "min" => Some(B::Min),
        "atan2" => Some(B::Atan2),
        "mul_hi" => Some(B::MulHi),
        "pow" => Some(B::Pow),
        _ => None,
    };
    if let Some(op) = binary {
        return Some(NumericPrimitive::Binary(op));
    }
    if function == "fma" && t.is_float() {
        return Some(NumericPrimitive::Fma);
    }
    if let Some(value) = numeric_constant(t, function) {
        return Some(NumericPrimitive::Constant(value));
    }
    let (operator, neutral) = match function {
        "sum" => (B::Add, "zero"),
        "product" => (B::Mul, "one"),
        "maximum" => (B::Max, "lowest"),
        "minimum" => (B::Min, "highest"),
        _ => return None,
    };
    Some(NumericPrimitive::Reduction {
        operator,
        neutral: numeric_constant(t, neutral)?,
    })
}

/// The numeric modules' constants.
fn numeric_constant(t: PrimType, name: &str) -> Option<PrimValue> {
    use PrimValue as V;
    Some(match (t, name) {
        (PrimType::F32, "pi") => V::F32(std::f32::consts::PI),
        (PrimType::F64, "pi") => V::F64(std::f64::consts::PI),
        (PrimType::F32, "e") => V::F32(std::f32::consts::E),
        (PrimType::F64, "e") => V::F64(std::f64::consts::E),
        (PrimType::F32, "inf" | "highest") => V::F32(f32::INFINITY),
        (PrimType::F64, "inf" | "highest") => V::F64(f64::INFINITY),
        (PrimType::F32, "lowest") => V::F32(f32::NEG_INFINITY),
        (PrimType::F64, "lowest") => V::F64(f64::NEG_INFINITY),
        (PrimType::F32, "nan") => V::F32(f32::NAN),
        (PrimType::F64, "nan") => V::F64(f64::NAN),
        (PrimType::I8, "highest") => V::I8(i8::MAX),
        (PrimType::I16, "highest") => V::I16(i16::MAX),
        (PrimType::I32, "highest") => V::I32(i32::MAX),
        (PrimType::I64, "highest") => V::I64(i64::MAX),
        (PrimType::U8, "highest") => V::U8(u8::MAX),
        (PrimType::U16, "highest") => V::U16(u16::MAX),
        (PrimType::U32, "highest") => V::U32(u32::MAX),
        (PrimType::U64, "highest") => V::U64(u64::MAX),
        (PrimType::I8, "lowest") => V::I8(i8::MIN),
        (PrimType::I16, "lowest") => V::I16(i16::MIN),
        (PrimType::I32, "lowest") => V::I32(i32::MIN),
        (PrimType::I64, "lowest") => V::I64(i64::MIN),
        (PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64, "lowest") => {
            super::zero_of(t)
        }
        (_, "zero") => super::zero_of(t),
        (PrimType::I8, "one") => V::I8(1),
        (PrimType::I16, "one") => V::I16(1),
        (PrimType::I32, "one") => V::I32(1),
        (PrimType::I64, "one") => V::I64(1),
        (PrimType::U8, "one") => V::U8(1),
        (PrimType::U16, "one") => V::U16(1),
        (PrimType::U32, "one") => V::U32(1),
        (PrimType::U64, "one") => V::U64(1),
        (PrimType::F32, "one") => V::F32(1.0),
        (PrimType::F64, "one") => V::F64(1.0),
        _ => return None,
    })
}
