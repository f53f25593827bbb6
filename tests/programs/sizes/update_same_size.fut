-- A `with` update whose value has the element's constant shape is fine,
-- and so is one whose shape is not a constant (checked at run time).
-- ==
-- input { 5i64 } output { [[1i32, 2i32], [3i32, 4i32]] 5i64 }
def main (n: i64) : ([][]i32, i64) =
  let xs = [[0i32, 0i32], [3i32, 4i32]] with [0i64] = [1i32, 2i32]
  let ys = replicate 1i64 (replicate n 0i32) with [0i64] = replicate n 1i32
  in (xs, length ys[0i64])
