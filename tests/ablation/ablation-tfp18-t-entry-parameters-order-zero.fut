-- Counterexample found by `runestone ablate --premise TFP18_T_ENTRY_PARAMETERS_ORDER_ZERO --seed 0` (program 37).
-- Check: generated arguments do not fit
-- the entry point main takes 2 arguments, 1 were given
-- Mutation: entry point with a function-typed parameter
-- ==
-- error:

def f1 (x2 : i32) : i32 = 0i32

entry main (x3 : i32) (x4 : i32 -> i32) : i32 = 0i32
