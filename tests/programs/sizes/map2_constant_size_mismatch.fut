-- `map2` of arrays whose sizes are different constants is a compile-time
-- error, as in Futhark (found by `runestone fuzz --oracle verdict`: the
-- reference used to accept it and fail at run time; SPEC_NOTES TFP18-19,
-- Extension: TFP18 T-ConstantSizes).
-- ==
-- error: sizes do not match
def main (x: i32) : [3]i32 = map2 (+) [1i32, 2i32, 3i32] (replicate 4i64 x)
