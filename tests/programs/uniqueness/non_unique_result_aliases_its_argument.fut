-- The result of a function whose result type is not unique aliases its
-- arguments (U-Apply): consuming it consumes `xs`, which is not
-- consumable.
-- ==
-- error: Would consume `xs`, which is not consumable

def firsts (xs: []i32) : []i32 = xs[0:2]

def main (xs: []i32) : []i32 =
  let ys = firsts xs
  in ys with [0] = 1
