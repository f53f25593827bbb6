-- The accepted form of tuple_argument_aliases_itself.fut.
-- ==
-- input { 3i64 } output { 6i64 [9i64, 1i64, 2i64] }

def both (t: *([]i64, []i64)) : (i64, *[]i64) =
  (length t.0 + length t.1, t.1 with [0] = 9)

def main (n: i64) : (i64, []i64) =
  let x = iota n
  in both (x, copy x)
