-- A type parameter carries its argument's sizes: `keep (replicate 4 x)`
-- is a `[4]i32`, so `map2` of it and a `[5]` array is a compile-time
-- error, as in Futhark (SPEC_NOTES TFP18-19). Found by `runestone fuzz
-- --oracle verdict --seed 7` (programs 29967 and 171615).
-- ==
-- error: sizes do not match
def keep 'a (x: a) (y: i32) : a = x

def main (x: i32) : [5]i32 =
  map2 (+) (keep (replicate 4i64 x) 2i32) (replicate 5i64 1i32)
