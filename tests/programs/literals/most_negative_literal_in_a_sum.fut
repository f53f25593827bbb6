-- The most negative `i64` written as a negated literal is in range in any
-- position, here an operand of `+` (the sum wraps around). The mutant
-- "literal one past its type's range" of `fuzz::gen` wrote it there, under
-- a negation, and both checkers rightly accepted it
-- (`runestone fuzz --oracle verdict --seed 100023`, program 2813).
-- ==
-- input { 3i64 } output { 9223372036854775800i64 -128i8 }

def main (x: i64) : (i64, i8) =
  (-9223372036854775808i64 + (x - 11i64), -128i8 + 0i8)
