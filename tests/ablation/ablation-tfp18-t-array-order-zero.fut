-- Counterexample found by `runestone ablate --premise TFP18_T_ARRAY_ORDER_ZERO --seed 0` (program 905).
-- Check: Theorem 1
-- Theorem 1 fails: f3: static values differ: Lam p5 … and Lam p6 …
-- Mutation: TFP'18 orderZero: an array holds functions
-- ==
-- error:

type shape1 = #leaf i8 u16 | #node

type pair2 'a = (a, a)

def f3 (x4 : u64) : i64 -> i8 =
  ([\(p5 : i64) -> 15i8, \(p6 : i64) -> (\(p5 : i64) -> 15i8) p6])[0i64]

entry main (x8 : i16) : [1][4]f32 =
  copy (replicate 1i64 (replicate 4i64 7.0f32))
