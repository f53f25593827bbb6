-- A lambda may not consume a variable bound outside it, even a unique
-- parameter: it could run many times (U-Lambda).
-- ==
-- error: Would consume `xs`, which is not consumable

def main (xs: *[]i32) : []i32 =
  map (\i -> (xs with [i] = 0)[0]) (iota 3)
