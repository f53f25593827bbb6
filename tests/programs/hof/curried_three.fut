-- A curried function of three parameters applied one argument at a time.
-- ==
-- input { 1 2 3 } output { 123 }
def f (a: i32) (b: i32) (c: i32) = a * 100 + b * 10 + c
def main (a: i32) (b: i32) (c: i32) = let g = f a in let h = g b in h c
