-- replicate.
-- ==
-- input { 3i64 7 } output { [7, 7, 7] }
def main (n: i64) (x: i32) = replicate n x
