-- curry, uncurry and flip from the prelude.
-- ==
-- input { 10 3 } output { 7 -7 13 }
def sub (a: i32) (b: i32) = a - b
def main (a: i32) (b: i32) =
  (uncurry sub (a, b), flip sub a b, curry (\(p: (i32, i32)) -> p.0 + p.1) a b)
