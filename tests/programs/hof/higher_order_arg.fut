-- A function taking a function taking a function.
-- ==
-- input { 2 } output { 12 }
def apply_twice (f: (i32 -> i32) -> i32) = f (\x -> x * 2) + f (\x -> x * 1)
def main (n: i32) = apply_twice (\g -> g (n * 2))
