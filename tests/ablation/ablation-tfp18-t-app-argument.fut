-- Counterexample found by `runestone ablate --premise TFP18_T_APP_ARGUMENT --seed 0` (program 1255).
-- Check: Theorem 1
-- Theorem 1 fails: main: Dyn bool is not related to i32 (core expression 23 of 24 replaced)
-- ==
-- input { 11i32 empty([0][2]bool) } output { [0i32] }

type shape1 = #left i32 i8 | #right | #circle

type shape2 = #node f64 | #none

type point3 = {x: i64, y: i64}

type pair4 'a = (a, a)

def f5 [n7] 'a6 (x8 : a6) (x9 : [n7]a6) (x10 : bool) : a6 = copy x8

entry main [n11] (x12 : i32) (x13 : [n11][2]bool) : []i32 =
  copy (replicate 1i64 0i32)
