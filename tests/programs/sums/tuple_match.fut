-- Matching on a tuple of constructors.
-- ==
-- input { true false } output { 2 }
type b = #t | #f
def conv (x: bool) : b = if x then #t else #f
def main (x: bool) (y: bool) = match (conv x, conv y)
  case (#t, #t) -> 3
  case (#t, #f) -> 2
  case (#f, _) -> 1
