-- A nest that is not perfect: each row is normalised by its own sum, so
-- the inner map depends on a reduction of the same row. F-Distribute makes
-- it a segmented reduction of the rows and a segmented map over both
-- dimensions reading each row's sum (only the division may fail).
-- ==
-- input { [[1, 2, 3], [4, 4, 0]] } output { [[10, 20, 30], [30, 30, 0]] }
-- input { [[0, 0]] } error: division by zero
def main (xss: [][]i32) : [][]i32 =
  map (\xs -> let s = reduce (+) 0 xs in map (\x -> 60 * x / s) xs) xss
