-- Counterexample found by `runestone ablate --premise TFP18_T_IF_ORDER_ZERO --seed 0` (program 653).
-- Check: Theorem 1
-- Theorem 1 fails: f1_681: static values differ: Lam p4 … and Lam p5 …
-- Mutation: TFP'18 orderZero: an if returns a function
-- ==
-- error:

def f1 (x2 : {a: f32, b: i32}) (x3 : [1]i32) : i32 =
  i32.i32 (let [m6] (ys7 : [m6]i64) =
    filter (if true then
      \(p4 : i64) -> true
    else
      \(p5 : i64) -> (\(p4 : i64) -> true) p5) [13i64]
  in
  0i32) % 3i32

entry main [n8] (x9 : [n8][n8]i32) (x10 : i64) (x11 : [n8][2]bool) : f32 =
  6.5f32
