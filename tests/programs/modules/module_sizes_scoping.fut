-- T-ConstantSizes on module programs follows the module language's scopes
-- (SPEC_NOTES TFP18-19): a function that an opaque ascription hides does
-- not shadow the top-level one of the same name when its module is opened,
-- and a module's own `map2` (of two anonymous sizes, which need not be
-- equal) shadows the library's when its module is opened. Accepted, as by
-- Futhark, and run.
-- ==
-- input { 1 } output { 3i64 5i64 }

def pick (xs: [3]i32) : [3]i32 = xs

module M : { val two : i32 } = {
  def pick (xs: [2]i32) : [2]i32 = xs
  def two : i32 = 2
}

module N = {
  def map2 (f: i32 -> i32 -> i32) (xs: []i32) (ys: []i32) : []i32 =
    map (\x -> f x 0) (xs ++ ys)
}

open M
open N

entry main (x: i32) : (i64, i64) =
  let picked = pick [x, x, two]
  let joined = map2 (+) [x, x] [x, x, two]
  in (length picked, length joined)
