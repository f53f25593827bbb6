-- A type abbreviation named like a primitive type shadows it, as every
-- Futhark name does: inside M, `u8` is `u32`, and at the top level `i8`
-- is `i64` (the reference once resolved such names to the primitive:
-- fuzz/findings/value_campaigns.md, SPEC_NOTES ICFP18-21).
-- ==
-- input { 1i64 } output { [6u32, 10u32] 2i64 }

module M = {
  type u8 = u32
  def get (x: i64) : [2]u8 = [6u32, 10u32 + u32.i64 (x - 1i64)]
}

type i8 = i64

def next (x: i8) : i8 = x + 1i64

def main (x: i64) : ([2]u32, i64) = (M.get x, next x)
