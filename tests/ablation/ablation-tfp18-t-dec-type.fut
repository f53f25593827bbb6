-- Counterexample found by `runestone ablate --premise TFP18_T_DEC_TYPE --seed 0` (program 39).
-- Check: Theorem 1
-- Theorem 1 fails: f1: Lam's body has type bool, not i32 (core expression 1 of 4 replaced)
-- ==
-- input { -20i32 } output { 0i32 }

def f1 (x2 : i32) : i32 = 0i32

entry main (x3 : i32) : i32 = 0i32
