-- Bitwise operators and shifts.
-- ==
-- input { 12 10 } output { 8 14 6 48 3 }
def main (a: i32) (b: i32) = (a & b, a | b, a ^ b, a << 2, a >> 2)
