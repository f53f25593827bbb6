-- Three nested maps over a three-dimensional array, with a scalar of the
-- enclosing scope and the outer indices' rows used at the innermost level.
-- ==
-- input { 10i64 [[[1i64, 2i64], [3i64, 4i64]], [[5i64, 6i64], [7i64, 8i64]]] }
-- output { [[[11i64, 12i64], [13i64, 14i64]], [[15i64, 16i64], [17i64, 18i64]]] }
-- input { 1i64 empty([2][0][5]i64) } output { empty([2][0][5]i64) }
def main (k: i64) (xsss: [][][]i64) : [][][]i64 =
  map (\xss -> map (\xs -> map (\x -> x + k) xs) xss) xsss
