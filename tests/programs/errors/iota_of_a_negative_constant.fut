-- `iota` of a negative constant is a run-time error on every backend. The
-- optimising compiler once rejected the program as ill-typed IR instead:
-- its simplifier put the constant in place of the `iota`'s length but not
-- in the result's type, which keeps a name since a negative constant is no
-- dimension.
-- ==
-- input { 3i64 } error: Range 0..1..<-2 is invalid
-- input { 0i64 } output { empty([0]i64) }
def main (x: i64) : []i64 = if x > 0 then map (+ x) (iota (-2)) else iota x
