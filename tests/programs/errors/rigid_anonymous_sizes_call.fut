-- Two parameters of anonymous sizes `[]` have two distinct implicit size
-- parameters: passing them to a function that needs one size `[n]` is a
-- type error, as in Futhark, even when both arrays have the same length at
-- run time (SPEC_NOTES TFP18-22).
-- ==
-- error: sizes do not match

def f [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

entry h (xs: []i32) (ys: []i32) : []i32 = f xs ys
