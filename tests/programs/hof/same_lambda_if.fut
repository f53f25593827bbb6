-- Both branches of a conditional may be the same function when the result
-- is not of function type.
-- ==
-- input { true 3 } output { 4 }
-- input { false 3 } output { 2 }
def main (b: bool) (x: i32) =
  let f = \(y: i32) -> y + 1
  let g = \(y: i32) -> y - 1
  in if b then f x else g x
