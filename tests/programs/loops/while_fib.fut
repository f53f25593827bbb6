-- A while loop with a tuple pattern.
-- ==
-- input { 100 } output { 144 233 }
def main (bound: i32) = loop (a, b) = (0, 1) while a <= bound do (b, a + b)
