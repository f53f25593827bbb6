-- Counterexample found by `runestone ablate --premise TFP18_T_REDUCE_OPERATOR --seed 0` (program 555).
-- Check: Theorem 1
-- TFP18 D-Reduce: static values differ: Dyn i64 and Dyn bool (core expression 8 of 33 replaced)
-- ==
-- input { -6i32 16i64 } output { 16i64 }

type shape1 = #left i32 | #right i32 bool

type shape2 = #some | #left bool

type point3 = {x: i32, y: i16}

def f4 '^a5 (x6 : a5) (x7 : a5) : (a5, bool) = (x7, false)

entry main (x8 : i32) (x9 : i64) : i64 =
  reduce (+) 0i64 (let (x10, x11) =
    if false then (9u16, (#left x8) : shape1) else (9u16, (#left 2i32) : shape1)
  in
  [x9])
