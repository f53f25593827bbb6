//! Primitive operations: arithmetic, conversions, `reduce`, `scan`, guarded
//! indexing and slicing.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use spec::syntax::ast::*;
use spec::value::PrimType;

impl Generator {
    pub(crate) fn arith(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Prim(prim) = ty else { unreachable!() };
        if self.config.numeric_functions && !self.config.paper_core && self.choices.chance(1, 4) {
            return self.numeric_function(env, *prim, depth);
        }
        let ops: &[&str] = if self.config.paper_core {
            &["+", "-", "*"]
        } else if prim.is_float() {
            &["+", "-", "*", "/"]
        } else {
            &["+", "-", "*", "&", "|", "^", "/", "%"]
        };
        let op = ops[self.choices.below(ops.len() as u32) as usize];
        let lhs = self.expr(env, ty, depth);
        let divides = !prim.is_float() && (op == "/" || op == "%");
        let mut rhs = if divides && self.config.may_fail && self.choices.chance(1, 2) {
            // `may_fail`: any divisor (zero is a run-time error).
            self.expr(env, ty, depth)
        } else if divides {
            // Integer division only by a positive constant: never by zero.
            literal(*prim, u64::from(self.choices.range(2, 9)))
        } else {
            self.expr(env, ty, depth)
        };
        if self.mutation_site(MutationKind::OperandMismatch) {
            rhs = self.wrong_value(ty);
        }
        binop(op, lhs, rhs)
    }

    /// A numeric module's function, operator or constant of type `prim`
    /// ([`super::super::GenConfig::numeric_functions`]).
    fn numeric_function(&mut self, env: &mut Env, prim: PrimType, depth: u32) -> Expr {
        let module = [prim.name().to_string()];
        let ty = Ty::Prim(prim);
        match self.choices.below(11) {
            8..=10 => self.bit_or_special_function(env, prim, depth),
            5..=7 => {
                // The module's operators as functions: `(T.-) a b`, `a T.* b`.
                let op = ["+", "-", "*"][self.choices.below(3) as usize];
                let op = BinOp::Symbol(qual(&module, op));
                let (lhs, rhs) = (self.expr(env, &ty, depth), self.expr(env, &ty, depth));
                if self.choices.chance(1, 2) {
                    apply_all(Expr::OpSection { op, span: span() }, vec![lhs, rhs])
                } else {
                    Expr::BinOp {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: span(),
                    }
                }
            }
            0 => qualified_var(&module, "lowest"),
            1 => qualified_var(&module, "highest"),
            2 => apply(qualified_var(&module, "abs"), self.expr(env, &ty, depth)),
            which => {
                let name = if which == 3 { "min" } else { "max" };
                let arguments = vec![self.expr(env, &ty, depth), self.expr(env, &ty, depth)];
                apply_all(qualified_var(&module, name), arguments)
            }
        }
    }

    /// A bit-level or special function of a numeric module with a result
    /// of type `prim`: `T.mul_hi`, `T.mad_hi`, `T.set_bit`, `S.popc`,
    /// `S.clz`, `S.ctz`, `S.get_bit` (to `i32`, for any integer type `S`),
    /// `F.to_bits` (to `u32`/`u64`), `T.nextafter`, `T.recip`, `T.mad`.
    fn bit_or_special_function(&mut self, env: &mut Env, prim: PrimType, depth: u32) -> Expr {
        let module = [prim.name().to_string()];
        let ty = Ty::Prim(prim);
        let bits = (prim.byte_size() * 8) as u64;
        let which = self.choices.below(3);
        if prim == PrimType::I32 && which != 2 {
            let integers = [
                PrimType::I8,
                PrimType::I16,
                PrimType::I32,
                PrimType::I64,
                PrimType::U8,
                PrimType::U16,
                PrimType::U32,
                PrimType::U64,
            ];
            let source = integers[self.choices.below(integers.len() as u32) as usize];
            let source_module = [source.name().to_string()];
            let argument = self.expr(env, &Ty::Prim(source), depth);
            let source_bits = (source.byte_size() * 8) as u64;
            return match self.choices.below(4) {
                0 => apply(qualified_var(&source_module, "popc"), argument),
                1 => apply(qualified_var(&source_module, "clz"), argument),
                2 => apply(qualified_var(&source_module, "ctz"), argument),
                _ => {
                    let bit = literal(PrimType::I32, self.choices.below(source_bits as u32) as u64);
                    apply_all(
                        qualified_var(&source_module, "get_bit"),
                        vec![bit, argument],
                    )
                }
            };
        }
        if matches!(prim, PrimType::U32 | PrimType::U64) && which == 0 {
            let float = if prim == PrimType::U32 {
                PrimType::F32
            } else {
                PrimType::F64
            };
            let argument = self.expr(env, &Ty::Prim(float), depth);
            return apply(
                qualified_var(&[float.name().to_string()], "to_bits"),
                argument,
            );
        }
        if which == 1 {
            let bit = literal(PrimType::I32, self.choices.below(bits as u32) as u64);
            let value = literal(PrimType::I32, self.choices.below(2) as u64);
            let argument = self.expr(env, &ty, depth);
            return apply_all(
                qualified_var(&module, "set_bit"),
                vec![bit, argument, value],
            );
        }
        let (name, arity) = match (prim.is_float(), self.choices.below(2)) {
            (false, 0) => ("mul_hi", 2),
            (false, _) => ("mad_hi", 3),
            (true, 0) => ("nextafter", 2),
            (true, _) if self.choices.chance(1, 2) => ("recip", 1),
            (true, _) => ("mad", 3),
        };
        let arguments = (0..arity).map(|_| self.expr(env, &ty, depth)).collect();
        apply_all(qualified_var(&module, name), arguments)
    }

    /// `f32.isnan x`, `f64.isinf x`, … ([`super::super::GenConfig::numeric_functions`]).
    pub(crate) fn float_test(&mut self, env: &mut Env, depth: u32) -> Expr {
        let float = if self.choices.chance(1, 2) {
            PrimType::F32
        } else {
            PrimType::F64
        };
        let test = if self.choices.chance(1, 2) {
            "isnan"
        } else {
            "isinf"
        };
        let argument = self.expr(env, &Ty::Prim(float), depth);
        apply(qualified_var(&[float.name().to_string()], test), argument)
    }

    pub(crate) fn convert(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Prim(target) = ty else { unreachable!() };
        let source = if self.choices.chance(1, 6) {
            if target.is_float() {
                PrimType::F32
            } else {
                PrimType::Bool
            }
        } else {
            // Integers convert to anything; floats only to floats.
            let candidate = self.random_numeric();
            if candidate.is_float() && !target.is_float() {
                PrimType::I32
            } else {
                candidate
            }
        };
        let argument = self.expr(env, &Ty::Prim(source), depth);
        apply(
            qualified_var(&[target.name().to_string()], source.name()),
            argument,
        )
    }

    /// An associative operator with its neutral element for `element`.
    pub(crate) fn scan_operator(element: &Ty) -> Option<(&'static str, u64)> {
        match element {
            Ty::Prim(PrimType::Bool) => Some(("&&", 1)),
            Ty::Prim(prim) if prim.is_float() => Some(("+", 0)),
            Ty::Prim(_) => Some(("+", 0)),
            _ => None,
        }
    }

    pub(crate) fn operator_function(&mut self, env: &Env, element: &Ty) -> (Expr, Expr) {
        let Ty::Prim(prim) = element else {
            unreachable!()
        };
        let (op, neutral) = match prim {
            PrimType::Bool => {
                if self.choices.chance(1, 2) {
                    ("||", 0)
                } else {
                    ("&&", 1)
                }
            }
            p if p.is_float() => ("+", 0),
            _ => {
                if self.choices.chance(1, 3) {
                    ("*", 1)
                } else {
                    ("+", 0)
                }
            }
        };
        let function = if self.choices.chance(1, 3) {
            let a = self.fresh("a");
            let b = self.fresh("b");
            let annotation = env.type_exp(element);
            lambda(
                vec![
                    pat_ascribe(pat_var(&a), annotation.clone()),
                    pat_ascribe(pat_var(&b), annotation),
                ],
                None,
                binop(op, var(&a), var(&b)),
            )
        } else {
            op_section(op)
        };
        (function, literal(*prim, neutral))
    }

    pub(crate) fn reduce(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let xs = self.expr(env, &array(Size::Unknown, ty.clone()), depth);
        let (function, neutral) = self.operator_function(env, ty);
        if self.choices.chance(1, 5) {
            binop("|>", xs, call("reduce", vec![function, neutral]))
        } else {
            call("reduce", vec![function, neutral, xs])
        }
    }

    pub(crate) fn scan(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(_, element) = ty else {
            unreachable!()
        };
        let xs = self.expr(env, ty, depth);
        let (function, neutral) = self.operator_function(env, element);
        call("scan", vec![function, neutral, xs])
    }

    /// A non-negative `i64` for indexing: a constant, a loop counter or a size.
    pub(crate) fn index_base(&mut self, env: &Env) -> Expr {
        if !env.index_bases.is_empty() && self.choices.chance(1, 2) {
            let index = self.choices.below(env.index_bases.len() as u32) as usize;
            let name = &env.index_bases[index];
            if env.is_visible(name) {
                return var(name);
            }
        }
        i64_literal(u64::from(self.choices.below(4)))
    }

    /// `xs[i]` in bounds: a constant below a constant size, or a guarded
    /// `if length xs > 0 then xs[i % length xs] else d` (unguarded in
    /// may-fail mode).
    pub(crate) fn index_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let size = if self.choices.chance(1, 2) {
            Size::Const(u64::from(self.choices.range(1, 3)))
        } else {
            Size::Unknown
        };
        let source_ty = array(size.clone(), ty.clone());
        let source = self.expr(env, &source_ty, depth);
        if let Size::Const(k) = size {
            let position = u64::from(self.choices.below(k as u32));
            return index(source, i64_literal(position));
        }
        let base = self.index_base(env);
        if self.config.may_fail {
            return index(source, base);
        }
        let name = self.fresh("arr");
        let length = call("length", vec![var(&name)]);
        let guarded = if_then_else(
            binop(">", length.clone(), i64_literal(0)),
            index(var(&name), binop("%", base, length)),
            self.leaf(env, ty),
        );
        let_in(pat_var(&name), source, guarded)
    }

    pub(crate) fn slice(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let source = self.expr(env, ty, depth);
        let name = self.fresh("arr");
        let half = if self.config.may_fail && self.choices.chance(3, 4) {
            // `may_fail`: a constant bound, past the end when the array is
            // shorter (a run-time error).
            i64_literal(u64::from(self.choices.range(2, 8)))
        } else {
            binop("/", call("length", vec![var(&name)]), i64_literal(2))
        };
        let (start, end) = if self.choices.chance(1, 2) {
            (Some(half), None)
        } else {
            (None, Some(half))
        };
        let sliced = Expr::Index {
            array: Box::new(var(&name)),
            indices: vec![DimIndex::Slice {
                start,
                end,
                stride: None,
            }],
            span: span(),
        };
        let_in(pat_var(&name), source, sliced)
    }
}
