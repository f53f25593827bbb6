-- Counterexample found by `runestone ablate --premise TFP18_T_MATCH_CASES --seed 0` (program 15).
-- Check: Theorem 1
-- TFP18 D-Match: static values differ: Dyn f32 and Dyn bool (core expression 62 of 63 replaced)
-- ==
-- input { [-2i64] } output { 6.0f32 }

def f1 (x2 : i64) : (f32, u32) =
  (let x3 = (12u8, 9i32) in
  loop (acc4 : f32) = 2.5f32 for i5 < 4i64 do acc4, reduce (\(a7 : u32) (b8 : u32) -> a7 * b8) 1u32 (let arr6 = replicate 1i64 12u32 in
  arr6[:length arr6 / 2i64]))

entry main (x9 : [1]i64) : f32 =
  match (let x10 = 1i32 + 7i32 in
    reduce (\(a11 : i32) (b12 : i32) -> a11 + b12) 0i32 [13i32, x10])
  case 0i32 ->
    (let g13 (y14 : f64) (y15 : bool) : bool = assert y15 false in
    5.5f32)
  case 1i32 -> 4.0f32
  case _ -> 6.0f32
