-- A size parameter is a value of type i64 in the body.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { 2i64 3i64 }
def dims [n][m] (_: [n][m]i32) = (n, m)
def main (a: [][]i32) = dims a
