-- A constructor with a tuple payload.
-- ==
-- input { 3 4 } output { 7 }
type t = #pair (i32, i32) | #single i32
def total (v: t) = match v
  case #pair (a, b) -> a + b
  case #single a -> a
def main (a: i32) (b: i32) = total (#pair (a, b))
