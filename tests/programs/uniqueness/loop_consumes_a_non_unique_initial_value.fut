-- The initial value of a loop parameter that the body consumes must be
-- consumable (U-Loop, U-Consume).
-- ==
-- error: Would consume `xs`, which is not consumable

def main (xs: []i32) : []i32 =
  loop acc = xs for i < 2 do acc with [i] = 0
