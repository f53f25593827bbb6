-- runestone-options: or-conditionals
-- Applying an `Or` whose results are again different functions.
-- ==
-- input { true 2 3 } output { 5 }
-- input { false 2 3 } output { 6 }
def main (b: bool) (x: i32) (y: i32) =
  let f = if b then \(a: i32) -> \(c: i32) -> a + c else \(a: i32) -> \(c: i32) -> a * c
  in f x y
