-- Counterexample found by `runestone ablate --premise ICFP18_12_ASCRIPTION --seed 0` (program 195).
-- Check: Proposition 6.1
-- static interpretation failed: rule 47: the expression does not have the ascribed type
-- Mutation: function body differs from its declared return type
-- ==
-- error:

def f1 (x2 : i32) : i32 = \(p3 : i32) -> p3

entry main (x4 : i32) : i32 = 0i32
