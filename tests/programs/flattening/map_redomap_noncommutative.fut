-- A map of a map-then-reduce whose operator is associative but not
-- commutative (the last non-negative element wins, -1 is neutral): the
-- segmented reduction must combine each segment in index order.
-- ==
-- input { [[3, -1, 5, -2], [-7, -8, -9, -1], [4, 4, -4, 9]] } output { [10, -1, 18] }
-- input { empty([2][0]i32) } output { [-1, -1] }
def last_nonneg (a: i32) (b: i32) : i32 = if b >= 0 then b else a
def main (xss: [][]i32) : []i32 =
  map (\xs -> reduce last_nonneg (-1) (map (\x -> if x >= 0 then 2 * x else -1) xs)) xss
