-- Exhaustive matches: `true` and `false` cover `bool`, constructors and
-- tuples are covered componentwise (TFP18 T-MatchExhaustive, as Futhark).
-- ==
-- input { true false 3 } output { 1 13 }
-- input { false true 0 } output { 2 0 }
-- input { false false -4 } output { 3 -1 }
type opt = #some i32 | #none
def main (a: bool) (b: bool) (x: i32) =
  let o : opt = if x > 0 then #some x else if x == 0 then #none else #some 0
  let first = match (a, b)
              case (true, _) -> 1
              case (false, true) -> 2
              case (false, false) -> 3
  let second = match o
               case #some 0 -> -1
               case #some y -> y + 10
               case #none -> 0
  in (first, second)
