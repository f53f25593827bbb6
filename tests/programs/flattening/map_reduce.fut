-- A map of reductions: a segmented reduction, one segment per row
-- (empty segments give the neutral element).
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [0, 0, 0]] } output { [6, 15, 0] }
-- input { empty([2][0]i32) } output { [0, 0] }
-- input { empty([0][3]i32) } output { empty([0]i32) }
def main (xss: [][]i32) : []i32 = map (\xs -> reduce (+) 0 xs) xss
