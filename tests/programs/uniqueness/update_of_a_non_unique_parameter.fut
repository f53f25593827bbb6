-- Only a unique (`*`) parameter may be consumed (U-Consume; code
-- not-consumable).
-- ==
-- error: Would consume `xs`, which is not consumable

def main (xs: []i32) : []i32 =
  xs with [0] = 1
