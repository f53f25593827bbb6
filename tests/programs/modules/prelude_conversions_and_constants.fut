-- The numeric modules' conversions, constants and float functions, from a
-- module-free program (which names `t.f`, so it runs through the module
-- calculus with the numeric prelude as its basis).
-- ==
-- input { 300 2.5f64 } output { 44u8 -128i8 true 2 3.0f64 2.0f64 true false 1i64 }
def main (x: i32) (y: f64) =
  ( u8.i32 x
  , i8.lowest
  , f64.isinf f64.inf
  , i32.f64 y
  , f64.ceil y
  , f64.round y
  , f64.isnan f64.nan
  , bool.i32 0
  , i64.bool true )
