-- Counterexample found by `runestone fuzz --oracle value --seed 5150` (program 875):
-- optimized failed with `Range is invalid.` where the reference names the
-- range's values (tests/programs/errors/range_invalid_values.fut has every
-- range form).
-- ==
-- input { -16i64 }
-- error: Range 4i64\.\.5i64\.\.<0i64 is invalid\.

type shape1 = #right u8 bool | #circle i64 | #square i32

type point2 = {x: bool, y: bool}

def f3 (x4 : [2][4]i64) (x5 : point2) (x6 : [1]bool) : bool =
  (map2 (\(p10 : i8) (p11 : shape1) : bool -> false) ([15i8] with [0i64] = 10i8) (let [m8] (ys9 : [m8]f32) = filter (\(p7 : f32) -> x5.y) [2.5f32, 3.5f32] in
  [(#right 13u8 x5.x) : shape1]))[0i64]

entry main (x14 : i64) : []i64 =
  concat (if (let xs15 = [4i32] in
    let xs15[0i64] = 10i32 in
    false) then
    ([[x14, x14], [6i64, x14]])[2i64]
  else
    4i64 ..< 0i64) ((let [m17] (ys18 : [m17]bool) = filter (\(p16 : bool) -> p16) [false] in
  [12i64]) : []i64)
