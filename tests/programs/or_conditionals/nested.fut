-- runestone-options: or-conditionals
-- Nested conditionals give nested `Or`s.
-- ==
-- input { 0 7 } output { 7 }
-- input { 1 7 } output { 8 }
-- input { 2 7 } output { 14 }
def main (c: i32) (x: i32) =
  let f = if c == 0 then \(y: i32) -> y
          else if c == 1 then \(y: i32) -> y + 1
          else \(y: i32) -> y * 2
  in f x
