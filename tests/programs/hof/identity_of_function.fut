-- A λ returning its function argument.
-- ==
-- input { 4 } output { 7 }
def main (x: i32) = let g = (\(f: i32 -> i32) -> f) (\y -> y + 3) in g x
