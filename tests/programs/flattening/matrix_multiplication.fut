-- Matrix multiplication: the inner map's body uses the outer map's row
-- `row` of `a`, an array, as the array of its innermost reduction (F-Carry):
-- the row is carried one level down, where it becomes the reduction's
-- array, read as `a[i, k]`, and the nest is one segmented reduction over
-- three dimensions. Non-square matrices, negative elements, and empty
-- dimensions of each kind.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [[1, -1], [0, 2], [3, 1]] }
-- output { [[10, 6], [22, 12]] }
-- input { [[2]] [[3, -4, 5]] }
-- output { [[6, -8, 10]] }
-- input { empty([0][3]i32) [[1, 2], [3, 4], [5, 6]] }
-- output { empty([0][2]i32) }
-- input { [[1, 2], [3, 4]] empty([2][0]i32) }
-- output { [empty([0]i32), empty([0]i32)] }
-- input { empty([2][0]i32) empty([0][3]i32) }
-- output { [[0, 0, 0], [0, 0, 0]] }

def main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
