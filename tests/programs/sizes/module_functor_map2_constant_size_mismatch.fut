-- `map2` of arrays whose sizes are different constants is a compile-time
-- error in a module program too (in a functor's body here), as on the
-- module-free path (SPEC_NOTES TFP18-19, Extension: TFP18 T-ConstantSizes).
-- The reference's module-calculus path did not check constant sizes and
-- accepted it (verdict oracle, seed 100001, 20 of 20 000 items, all module
-- programs: "reference accepts, optimized rejects").
-- ==
-- error: sizes do not match

module type S = { type t  val mk : i32 -> t }

module F (X: S) = {
  def pairs (x: i32) : [1]i16 =
    map2 (\(p: f32) (q: i32) -> 3i16) (replicate 1i64 5.0f32) (replicate 2i64 x)
}

module M : S = { type t = i32  def mk (x: i32) : t = x }

module N = F M

def main (x: i32) : [1]i16 = N.pairs x
