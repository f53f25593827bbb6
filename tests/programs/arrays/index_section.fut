-- An index section picks the same element of every row.
-- ==
-- input { [[1, 2], [3, 4]] } output { [2, 4] }
def main (m: [][]i32) = map (.[1]) m
