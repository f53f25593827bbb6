-- Counterexample found by `runestone ablate --premise TFP18_T_BINOP_OPERANDS --seed 0` (program 331).
-- Check: Theorem 1
-- Theorem 1 fails: f1: static values differ: Dyn i64 and Dyn bool (core expression 5 of 14 replaced)
-- ==
-- input { empty([0]bool) [1.0f64, 1.625f64, 2.0f64] -15i32 } output { false }

def f1 (x2 : [4]u64) : i32 = 5i32

entry main [n3] (x5 : [n3]bool) (x6 : []f64) (x7 : i32) : bool = false
