-- A function's body of size `[n]` where its declared result type says
-- `[2]` is a type error (a size parameter is rigid in the body), as in
-- Futhark, also when every call passes two elements (SPEC_NOTES TFP18-20).
-- ==
-- error: sizes do not match

def first_two [n] (xs: [n]i64) : [2]i64 = xs

entry main (x: i64) : [2]i64 = first_two [x, x]
