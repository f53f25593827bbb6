-- Negation, and `!` on booleans and integers.
-- ==
-- input { 5 true } output { -5 false -6 }
def main (x: i32) (b: bool) = (-x, !b, !x)
