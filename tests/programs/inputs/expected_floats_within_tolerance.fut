-- A test block's expected floats are compared as `futhark test` compares
-- them, within a relative 0.2 %, on every backend: `0.1 + 0.2` is not the
-- double nearest 0.3, and `-1.4f32 * 1.0000001f32` not the float nearest
-- -1.4, yet both outputs pass, on the reference too (which compared
-- bitwise before; found on a corpus of real Futhark programs, issue 26).
-- Integers stay exact.
-- ==
-- entry: sum
-- input { 0.1f64 0.2f64 } output { 0.3f64 }

-- ==
-- entry: scaled
-- input { -1.4f32 } output { -1.4f32 [1000.0f32, 2e-3f32] 7i32 }

entry sum (x: f64) (y: f64) = x + y

entry scaled (x: f32) =
  (x * 1.0000001f32, map (* 1.0000001f32) [1000.0f32, 2e-3f32], 7i32)
