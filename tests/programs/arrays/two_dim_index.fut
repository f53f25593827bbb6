-- Multi-dimensional indexing a[i, j].
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 } output { 6 }
def main (m: [][]i32) (i: i64) (j: i64) = m[i, j]
