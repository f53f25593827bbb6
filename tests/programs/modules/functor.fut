-- A functor applied to two structures.
-- f x = M.g (M.g x): with g = (+1) gives x+2, with g = (*3) gives 9x.
-- ==
-- input { 4 } output { 42 }
module type G = { val g: i32 -> i32 }
module Twice = \(M: G) -> { def f (x: i32) : i32 = M.g (M.g x) }
module A = Twice { def g (x: i32) : i32 = x + 1 }
module B = Twice { def g (x: i32) : i32 = x * 3 }
def main (x: i32) : i32 = A.f x + B.f x + 0 * 1
