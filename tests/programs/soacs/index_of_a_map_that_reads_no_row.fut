-- Indexing the result of a map whose lambda reads none of its rows: once
-- the simplifier dropped the unread arrays, index fusion recomputed the
-- element without any read to check the index, and the out-of-bounds
-- index gave a value (found by `runestone fuzz --oracle value --seed 1`,
-- program 103). The index is still checked against the map's width.
-- ==
-- input { 1i64 } output { 1.5f32 }
-- input { 2i64 } error: Index \[2\] out of bounds for array of shape \[2\]
-- input { -1i64 } error: out of bounds

def main (i: i64) : f32 =
  (map2 (\(_: u32) (_: i64) -> 1.5f32) [12u32, 7u32] [8i64, 5i64])[i]
