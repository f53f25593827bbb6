-- Counterexample found by `runestone ablate --premise TFP18_T_UPDATE_ELEMENT --seed 0` (program 323).
-- Check: Theorem 1
-- Theorem 1 fails: f5: static values differ: Dyn #circle i64 | #square and Dyn bool (core expression 19 of 62 replaced)
-- ==
-- input { 1.25f32 [7u32, 13u32] } output { 2i64 }

type shape1 = #circle i64 | #square

def f2 (x3 : f32 -> i32) (x4 : []f32) : i32 = 10i32

def f5 (x6 : f32) (x7 : f64) (x8 : bool) : bool =
  if (let [m11] (ys12 : [m11]bool) =
      filter (let xs9 = replicate 3i64 ((#square) : shape1) in
      let xs9[2i64] = (#square) : shape1 in
      \(p10 : bool) -> x8) [x8, false]
    in
    4i32 == 5i32) then
    x8
  else
    x8

entry main [n13] (x14 : f32) (x15 : [n13]u32) : i64 =
  (match (#circle n13) : shape1
  case #circle v16 -> (if true then [v16, v16, n13] else [n13, 2i64, v16])
  case #square ->
    let x17 = n13 in
    replicate 3i64 1i64)[2i64]
