-- A match must cover every value of its scrutinee's type, as in Futhark:
-- a match on `i32` with only literal cases is rejected at compile time
-- (TFP18 T-MatchExhaustive, SPEC_NOTES TFP18-18), so no match fails at run
-- time.
-- ==
-- error: T-MatchExhaustive
def main (x: i32) = match x
  case 1 -> 10
  case 2 -> 20
