-- map with a closure capturing an array.
-- ==
-- input { [10, 20, 30] [2, 0, 1] } output { [30, 10, 20] }
def main (table: []i32) (is: []i32) = map (\i -> table[i64.i32 i]) is
