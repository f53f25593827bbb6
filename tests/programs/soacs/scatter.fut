-- scatter writes values at indices; out-of-bounds writes are ignored.
-- ==
-- input { [0, 0, 0, 0] [1i64, 3i64, 7i64] [5, 6, 9] } output { [0, 5, 0, 6] }
def main [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) = scatter dest is vs
