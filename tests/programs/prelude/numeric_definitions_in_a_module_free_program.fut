-- A module-free program naming numeric-module functions that the prelude
-- defines in the language rather than as primitives (`lerp`, `hypot`,
-- `from_fraction`, `epsilon`, `num_bits`, `get_bit`, `mad_hi`): each means
-- its prelude definition, whether or not the compiler has a primitive for
-- it. (The optimising compiler once rejected `f64.lerp` and `f32.hypot` in
-- module-free programs as "not supported yet".)
-- ==
-- input { 2f64 }
-- output { 3.0f64 5.0f32 0.75f64 true 64 1 10u8 }
def main (x: f64) =
  ( f64.lerp x 4 0.5
  , f32.hypot 3 4
  , f64.from_fraction 3 4
  , f32.epsilon < 1e-6
  , i64.num_bits
  , i32.get_bit 1 (i32.f64 x)
  , u8.mad_hi 16u8 32u8 8u8 )
