-- The rows of an array literal must have one shape: a `[n]` row beside a
-- `[2]` one is a type error, as in Futhark (SPEC_NOTES TFP18-20).
-- ==
-- error: sizes do not match

def rows [n] (xs: [n]i64) : [][]i64 = [xs, replicate 2i64 1i64]

entry main (x: i64) : i64 = length (rows [x, x])
