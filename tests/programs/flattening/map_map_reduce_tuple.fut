-- A three-level nest ending in a reduction of pairs (minimum and its
-- position in the row): segments over two dimensions, a two-component
-- operator.
-- ==
-- input { [[[3, 1, 2], [5, 5, 4]], [[9, 8, 7], [0, 6, 0]]] }
-- output { [[1, 4], [7, 0]] [[1i64, 2i64], [2i64, 0i64]] }
def argmin (a: (i32, i64)) (b: (i32, i64)) : (i32, i64) =
  if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) then b else a
def main (xsss: [][][]i32) : ([][]i32, [][]i64) =
  let r = map (\xss -> map (\xs -> reduce argmin (i32.highest, i64.highest) (zip xs (indices xs))) xss) xsss
  in (map (map (.0)) r, map (map (.1)) r)
