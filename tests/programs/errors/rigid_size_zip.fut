-- `zip` of arrays of two different size parameters (both rigid in the
-- body) is a type error, as in Futhark, though both are 1 at the call
-- (SPEC_NOTES TFP18-20).
-- ==
-- error: sizes do not match

def pairs [n] [m] (xs: [n]i64) (ys: [m]i64) : [](i64, i64) = zip xs ys

entry main (x: i64) : i64 = length (pairs [x] [x])
