-- A grid computed from its indices (mandelbrot's shape): the outer map's
-- body computes scalars from its row index, then maps over `iota w`. The
-- iota's elements are computed from the inner index (F-Iota, its check
-- hoisted), the scalars move into the inner body (F-Sink), and the nest is
-- one segmented map over two dimensions. A negative width fails where the
-- iota did, with its message; an empty outer dimension never evaluates it.
-- ==
-- input { 2i64 3i64 } output { [[0i32, 1i32, 2i32], [10i32, 11i32, 12i32]] }
-- input { 0i64 3i64 } output { empty([0][3]i32) }
-- input { 2i64 -1i64 } error: Range 0..1..<-1 is invalid
def main (h: i64) (w: i64) : [][]i32 =
  map (\y ->
         let row = i32.i64 y * 10
         in map (\x -> row + i32.i64 x) (iota w))
      (iota h)
