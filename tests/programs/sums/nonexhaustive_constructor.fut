-- A match on a sum type needs a case for every constructor (or `_`); a
-- literal in a constructor's payload covers only that value, so `#some 1`
-- is unmatched here (TFP18 T-MatchExhaustive, as Futhark).
-- ==
-- error: T-MatchExhaustive
type opt = #some i32 | #none
def main (x: i32) =
  let o : opt = if x > 0 then #some x else #none
  in match o
     case #some 0 -> 0
     case #none -> 1
