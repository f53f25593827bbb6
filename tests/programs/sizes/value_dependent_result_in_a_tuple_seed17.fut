-- The result of a function whose result size is its parameter's value
-- (`(n: i64) -> [n]i32`), inlined by defunctionalisation inside a tuple:
-- the tuple's type was built from the inlined body's static value, which
-- still named the inlined parameter `n`, so the optimising compiler's
-- first-order core was ill-formed ("the size `n` is not in scope"). Found
-- by the value campaign with `GenConfig::value_dependent_sizes` (seed 17,
-- program 89 of `fuzz/tests/mutation_campaign.rs`), shrunk by hand.
-- ==
-- input { 1i32 } output { [13i32, 13i32] 14i32 }

def fill_sized (n: i64) (x: i32) : [n]i32 = replicate n x

entry main (k: i32) : ([2]i32, i32) =
  let (a, b) = (fill_sized 2i64 13i32, k + 13i32)
  in (a, b)
