-- A primitive function passed to scan.
-- ==
-- input { [3, 1, 4, 1, 5] } output { [3, 3, 4, 4, 5] }
def main (xs: []i32) = scan i32.max i32.lowest xs
