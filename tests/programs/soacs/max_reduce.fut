-- reduce with a lambda computing the maximum.
-- ==
-- input { [3, 9, -2, 7] } output { 9 }
def main (xs: []i32) = reduce (\a b -> if a > b then a else b) i32.lowest xs
