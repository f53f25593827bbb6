-- Matching on literals with a default case.
-- ==
-- input { 1 } output { 10 }
-- input { 2 } output { 20 }
-- input { 7 } output { 0 }
def main (x: i32) = match x
  case 1 -> 10
  case 2 -> 20
  case _ -> 0
