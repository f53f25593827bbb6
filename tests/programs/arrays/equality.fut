-- `==` and `!=` compare arrays, tuples and records structurally. Futhark's
-- `==` takes two operands of one type, sizes included, so arrays of
-- different sizes are told apart by their sizes first.
-- ==
-- input { [1, 2] [1, 2] } output { true false true }
-- input { [1, 2] [1, 3] } output { false true false }
-- input { [1, 2] [1, 2, 3] } output { false true false }
def main [n] [m] (a: [n]i32) (b: [m]i32) =
  if n != m then (false, true, false)
  else let b = b :> [n]i32
       in (a == b, (a, 1) != (b, 1), {x = a} == {x = b})
