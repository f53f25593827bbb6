-- A slice on one dimension and an index on the next: a column.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [2, 4, 6] [3, 5] }
def main (m: [][]i32) = (m[:, 1], m[1:, 0])
