-- A tuple holding a function and a value; the function is applied later.
-- ==
-- input { 6 } output { 42 }
def pack (k: i32) = (\(x: i32) -> x * k, 7)
def main (k: i32) = let (f, v) = pack k in f v
