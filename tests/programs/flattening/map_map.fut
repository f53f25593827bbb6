-- A perfect nest of two maps: one segmented map over a two-dimensional
-- index space. Empty rows and an empty outer array included.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[3, 5, 7], [9, 11, 13]] }
-- input { [[7], [8], [9]] } output { [[15], [17], [19]] }
-- input { empty([0][4]i32) } output { empty([0][4]i32) }
-- input { empty([3][0]i32) } output { empty([3][0]i32) }
def main (xss: [][]i32) : [][]i32 = map (\xs -> map (\x -> 2 * x + 1) xs) xss
