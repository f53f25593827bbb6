-- A `filter` that keeps no row gives an empty array whose rows are still
-- `[4]i32`, so it fits a `[][4]i32` parameter (SPEC_NOTES TFP18-6). Found by
-- `runestone fuzz --oracle value --seed 11` (program 1760).
-- ==
-- input { 5i32 } output { 0i64 }
-- input { 1i32 } output { 1i64 }
def count (xs: [][4]i32) : i64 = length xs

def main (k: i32) : i64 =
  count (filter (\(r: [4]i32) -> r[0] > k) [replicate 4i64 1i32, replicate 4i64 2i32])
