-- A lifted type parameter may be instantiated with a function type.
-- ==
-- input { 5 } output { 6 }
def apply '^a '^b (f: a -> b) (x: a) : b = f x
def pick '^a (x: a) (_: i32) : a = x
def main (n: i32) = (pick (\(y: i32) -> y + 1) 0) (apply (\y -> y) n)
