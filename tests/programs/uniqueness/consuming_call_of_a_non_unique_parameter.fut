-- A unique parameter demands a consumable argument (U-Apply, U-Consume).
-- ==
-- error: Would consume `xs`, which is not consumable

def set_first (a: *[]i32) (v: i32) : *[]i32 =
  a with [0] = v

def main (xs: []i32) : []i32 =
  set_first xs 5
