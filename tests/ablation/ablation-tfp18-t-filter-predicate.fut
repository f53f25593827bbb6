-- Counterexample found by `runestone ablate --premise TFP18_T_FILTER_PREDICATE --seed 0` (program 1155).
-- Check: Theorem 1
-- TFP18 D-Filter: static values differ: Dyn bool and Dyn i32 (core expression 26 of 54 replaced)
-- ==
-- input { empty([0]i64) } output { 0.0f64 }

type shape1 = #leaf | #node u8

type shape2 = #none | #some | #left

type point3 = {x: bool, y: u8}

def f4 [n5] (x6 : [n5]i32) : [n5]shape2 = copy (replicate n5 ((#none) : shape2))

entry main [n7] (x8 : [n7]i64) : f64 =
  let x11 =
    let [m9] (ys10 : [m9]i64) = filter (== 13i64) x8 in
    if true then replicate n7 (replicate n7 n7) else replicate n7 x8
  in
  reduce (+) 0.0f64 ([0.0f64] : []f64)
