-- sgn on integers.
-- ==
-- input { -5 0 7 } output { -1 0 1 }
def main (a: i32) (b: i32) (c: i32) = (i32.sgn a, i32.sgn b, i32.sgn c)
