-- A table of constants that each point of a map updates in place before
-- reading it, in one branch (so no earlier pass moves it out of the map):
-- every point needs its own copy, so F-Constant leaves it in the segmented
-- map's body (built once for all points, the first point's update would be
-- seen by the others).
-- ==
-- input { [0i64, 1i64, 2i64] [5i32, 6i32, 7i32] }
-- output { [5i32, 6i32, 7i32] }
-- input { [0i64, 0i64, -1i64] [1i32, 2i32, 3i32] }
-- output { [1i32, 2i32, 0i32] }
-- input { [3i64] [1i32] }
-- error: out of bounds

def main [n] (at: [n]i64) (values: [n]i32) : [n]i32 =
  map2 (\i v -> if i >= 0
                then let table = [0i32, 0i32, 0i32] with [i] = v
                     in table[0] + table[1] + table[2]
                else 0) at values
