-- runestone-options: or-conditionals
-- Branches capturing different variables.
-- ==
-- input { true 3 } output { 13 }
-- input { false 3 } output { -97 }
def main (b: bool) (x: i32) =
  let k = 10
  let m = 100
  let f = if b then \(y: i32) -> y + k else \(y: i32) -> y - m
  in f x
