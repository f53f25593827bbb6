-- The numeric modules passed to functors over `real` and `integral`: every
-- kind of the prelude's intrinsics (elementary functions, `abs`/`sgn`,
-- `min`/`max`, `atan2`, rounding, `isnan`/`isinf`, conversions) reached
-- through a functor's parameter. At x = -2.5: sqrt 16 = 4, |x| = 2.5,
-- sgn x = -1, max x 1 = 1, min x 1 = -2.5, atan2 0 1 = 0, floor x = -3,
-- ceil x = -2, round x = -2 (half to even), trunc x = -2, to_i64 x = -2
-- (towards zero), from_fraction 3 4 = 0.75, exp 0 = 1, log 1 = 0.
-- At -7: |x| = 7, sgn = -1, max x 3 = 3, min x 3 = -7, u8.i64 (-7) = 249
-- (wrapping), bool.i32 (-7) = true, to_f64 = -7; at 7u16 the same functions
-- give 7, 1, 7, 3, 7, true, 7.
-- ==
-- entry: real32
-- input { -2.5f32 }
-- output { 4f32 2.5f32 -1f32 1f32 -2.5f32 0f32 -3f32 -2f32 -2f32 -2f32 true true -2i64 0.75f32 1f32 0f32 }
-- ==
-- entry: real64
-- input { -2.5f64 }
-- output { 4f64 2.5f64 -1f64 1f64 -2.5f64 0f64 -3f64 -2f64 -2f64 -2f64 true true -2i64 0.75f64 1f64 0f64 }
-- ==
-- entry: int32
-- input { -7 } output { 7 -1 3 -7 249u8 true -7f64 }
-- ==
-- entry: int16u
-- input { 7u16 } output { 7u16 1u16 7u16 3u16 7u8 true 7f64 }

module mk_real (R: real) = {
  def probe (x: R.t) =
    ( R.sqrt (R.i32 16), R.abs x, R.sgn x, R.max x (R.i32 1), R.min x (R.i32 1)
    , R.atan2 (R.i32 0) (R.i32 1), R.floor x, R.ceil x, R.round x, R.trunc x
    , R.isnan R.nan, R.isinf R.inf, R.to_i64 x, R.from_fraction 3 4
    , R.exp (R.i32 0), R.log (R.i32 1) )
}

module mk_integral (I: integral) = {
  def probe (x: I.t) =
    ( I.abs x, I.sgn x, I.max x (I.i32 3), I.min x (I.i32 3), u8.i64 (I.to_i64 x)
    , bool.i32 (i32.i64 (I.to_i64 x)), I.to_f64 x )
}

module r32 = mk_real f32
module r64 = mk_real f64
module n32 = mk_integral i32
module n16u = mk_integral u16

entry real32 (x: f32) = r32.probe x
entry real64 (x: f64) = r64.probe x
entry int32 (x: i32) = n32.probe x
entry int16u (x: u16) = n16u.probe x
