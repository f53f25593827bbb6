-- A match with no case for the value is a run-time error (the reference
-- does not check exhaustiveness at compile time).
-- ==
-- input { 1 } output { 10 }
-- input { 3 } error: no case
def main (x: i32) = match x
  case 1 -> 10
  case 2 -> 20
