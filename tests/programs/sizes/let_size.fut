-- A size bound by a let pattern from a filtered array.
-- ==
-- input { [3, -1, 4, -1, 5] } output { 3i64 }
def main (xs: []i32) = let [k] (ys: [k]i32) = filter (> 0) xs in k
