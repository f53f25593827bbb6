-- A for-in loop with a pair as loop variable.
-- ==
-- input { [1, 2, 3, 4] } output { 10 24 }
def main (xs: []i32) = loop (s, p) = (0, 1) for x in xs do (s + x, p * x)
