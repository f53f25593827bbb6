-- A sum type and match.
-- ==
-- input { 3 } output { 4 }
-- input { -1 } output { 0 }
type opt = #none | #some i32
def f (x: i32) : opt = if x >= 0 then #some x else #none
def main (x: i32) = match f x
  case #some v -> v + 1
  case #none -> 0
