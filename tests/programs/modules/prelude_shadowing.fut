-- A program may shadow a module of the numeric prelude: its own `i32` has
-- only `double`, and the prelude's `i32.max` is no longer visible through it;
-- `f32` is still the prelude's.
-- ==
-- input { 21 } output { 42 3f32 }
module i32 = { def double (x: i32) : i32 = x + x }
def main (x: i32) : (i32, f32) = (i32.double x, f32.max 1f32 3f32)
