-- The anonymous size `[]` of a parameter is an implicit size parameter,
-- rigid in the function's body: returning the array at the constant size 3
-- is a type error, as in Futhark, even when every call passes 3 elements
-- (SPEC_NOTES TFP18-22; the reference used to check it at run time only).
-- ==
-- error: sizes do not match

def g (xs: []i32) : [3]i32 = xs

entry main (x: i32) : [3]i32 = g [x, x, x]
