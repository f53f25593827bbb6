-- A user-defined polymorphic composition over lifted type parameters.
-- ==
-- input { 3 } output { 7 true }
def compose '^a '^b '^c (g: b -> c) (f: a -> b) : a -> c = \x -> g (f x)
def main (x: i32) =
  ((compose (+ 1) (* 2)) x, (compose (\y -> y > 0) (\y -> y - 1)) x)
