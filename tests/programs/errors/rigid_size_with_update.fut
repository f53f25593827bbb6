-- A size parameter is rigid in its function's body: a `[n4]` row where the
-- `with` update of an array of `[2]` rows requires a `[2]` one is a type
-- error, as in Futhark, even though `n4` is 2 at the one call (SPEC_NOTES
-- TFP18-20). Found by `runestone fuzz --oracle verdict --seed 7` (program
-- 75938: the reference accepted it, optimized rejected it).
-- ==
-- error: sizes do not match

def f3 [n4] (x5 : [n4]i64) : i64 =
  (replicate 3i64 (replicate 2i64 1i64) with [1i64] = x5)[2i64] |> reduce (+) 0i64

entry main (x : i64) : i64 = f3 [x, x]
