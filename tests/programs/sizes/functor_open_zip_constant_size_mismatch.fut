-- `zip` of arrays of the constant sizes 2 and 3 in the body of a
-- parametric module that opens its parameter is a compile-time error, as in
-- Futhark: the body is checked once, the parameter's specification giving
-- its values unknown sizes (SPEC_NOTES TFP18-19, Extension: TFP18
-- T-ConstantSizes on module programs).
-- ==
-- error: sizes do not match

module type has_x = { val x : i32 }

module Pairs (X: has_x) = {
  open X
  local def twice : [2]i32 = [x, x]
  def pairs : [](i32, i32) = zip twice [x, x, x]
}

module P = Pairs { def x : i32 = 1 }

def main (y: i32) : i64 = length P.pairs + i64.i32 y
