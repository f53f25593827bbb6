-- Counterexample found by `runestone ablate --premise TFP18_T_IF_BRANCHES --seed 0` (program 1359).
-- Check: Theorem 1
-- TFP18 D-If: static values differ: Arr (Dyn u16) and Arr (Dyn bool) (core expression 70 of 71 replaced)
-- ==
-- input { [3.5f32, -2.5f32, -5.0f32, 4.25f32] } output { [12u16, 12u16, 12u16] }

type shape1 = #none | #some

type point2 = {x: i64, y: i32}

def f3 (x4 : []i64) (x5 : (bool, i32)) (x6 : []u32) : []bool =
  copy (map (let xs9 = [5i16 * 2i16, 12i16] in
  let xs9[0i64] = 7i16 in
  \(p10 : shape1) -> x5.0) (replicate 2i64 (3i64, 0.5f32) |> map (\(p7 : (i64, f32)) -> p7.1) |> map (\(p8 : f32) -> (#none) : shape1)))

entry main (x12 : []f32) : []u16 =
  copy (if false then
    let x14 =
      let x13 = [false, true] in
      [true, false, true]
    in
    [12u16]
  else
    replicate 3i64 12u16)
