-- Counterexample found by `runestone ablate --premise ICFP18_14_ARGUMENT --seed 0` (program 69).
-- Check: Proposition 6.1
-- static interpretation failed: rule 46: the function's parameter type must be the argument's type
-- Mutation: function applied to wrong argument type
-- ==
-- error:

def f1 (x2 : i32) (x3 : i32) : i32 = 2i32

entry main (x4 : i32) : i32 = f1 (\(p5 : i32) -> p5) 0i32
