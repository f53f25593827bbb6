-- A module-free program that names a numeric module (`f32.i64`) goes
-- through the module calculus in the reference; its constant sizes are
-- checked as on the core path: a `[2]f32` value for a `[1]f32` element is
-- a compile-time error, as in Futhark (SPEC_NOTES TFP18-19; `runestone fuzz
-- --oracle verdict --seed 7`, program 55736).
-- ==
-- error: sizes do not match
def main (x: i64) : []f32 =
  ([[f32.i64 x], [2.0f32], [6.5f32]] with [0i64] = replicate 2i64 0.5f32)[1i64]
