-- Host code between segmented operations: a sequential loop whose body is
-- a perfect nest (one step of a blur along rows), and a branch choosing
-- between two nests.
-- ==
-- input { 2 [[1, 2, 3], [4, 5, 6]] } output { [[4, 7, 8], [11, 13, 16]] }
-- input { -1 [[1, 2], [3, 4]] } output { [[-1, -2], [-3, -4]] }
def main (steps: i32) (xss: [][]i32) : [][]i32 =
  if steps < 0 then map (\xs -> map (\x -> -x) xs) xss
  else loop xss for _i < steps do map (\xs -> map (\x -> x + 1) xs) (map (\xs -> map (\x -> x + x / 2) xs) xss)
