-- An `i64` parameter used as a size (`[n]`) is rigid in the body, and so is
-- the anonymous size `[]` of another parameter: returning that array at
-- size `n` is a type error, as in Futhark, even when the call passes its
-- length (SPEC_NOTES TFP18-22).
-- ==
-- error: sizes do not match

entry main (n: i64) (xs: []i32) : [n]i32 = xs
