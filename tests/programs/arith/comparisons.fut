-- Comparison operators.
-- ==
-- input { 3 4 } output { true true false false false true }
def main (a: i32) (b: i32) = (a < b, a <= b, a > b, a >= b, a == b, a != b)
