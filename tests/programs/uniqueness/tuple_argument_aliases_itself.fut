-- The components of a tuple passed for a unique tuple parameter may not
-- share storage (U-SelfAlias; code self-aliasing-arg).
-- ==
-- error: self-aliased

def both (t: *([]i64, []i64)) : i64 = length t.0 + length t.1

def main (n: i64) : i64 =
  let x = iota n
  in both (x, x)
