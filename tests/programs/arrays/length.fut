-- length is an i64 (T-Length).
-- ==
-- input { [1, 2, 3] } output { 3i64 }
-- input { empty([0]i32) } output { 0i64 }
def main (xs: []i32) = length xs
