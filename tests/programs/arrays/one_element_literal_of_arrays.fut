-- A one-element array literal has nothing to disagree with: `[iota 3]` is a
-- `[1][3]i64`, `[true]` a `[1]bool`. A generated mutant "array literal
-- elements differ in type" replaced the only element and both checkers
-- rightly accepted it (`runestone fuzz --oracle verdict --seed 100024`,
-- program 251); a literal of two elements whose types differ is rejected.
-- ==
-- input { 2i64 } output { [[0i64, 1i64, 2i64]] [true] }

def main (n: i64) : ([1][]i64, [1]bool) =
  ([iota (n + 1)], [true])
