-- runestone-options: or-conditionals
-- A map whose lambda is chosen by a function-valued `if` (TFP'18 §7): the
-- kernel, specialised on the closure's `u8` tag, compares `u8` constants
-- in a lambda over `i32` and did not compile without 8-bit arithmetic.
-- Found by `runestone fuzz --oracle gpu --seed 3` (program 290).
-- ==
-- input { [-8i16, 9i16, -5i16] false [15i32] } output { [5i32, 5i32, 5i32] }

type shape1 = #node i32 f32 | #none u32 | #some i32

type shape2 = #some f32 | #left | #right

def f3 [n4] (x5 : [n4]f32) : i64 = reduce (+) 0i64 (0i64 .. 2i64 ... 0i64)

entry main [n7] (x8 : [n7]i16) (x9 : bool) (x10 : [1]i32) : [n7]i32 =
  (let xs13 =
    replicate 1i64 (reduce (\(a11 : i64) (b12 : i64) -> a11 * b12) 1i64 [n7, 5i64, n7])
  in
  let xs13[0i64] = if false then 6i64 else 14i64 in
  loop (acc14 : [n7](i32, i32)) = replicate n7 (15i32, 4i32) for i15 < 4i64 do
    replicate n7 (3i32, 5i32)) |> map (if x9 then
    \(p16 : (i32, i32)) -> p16.0
  else if x9 then \(p17 : (i32, i32)) -> p17.0 else \(p18 : (i32, i32)) -> p18.1)
