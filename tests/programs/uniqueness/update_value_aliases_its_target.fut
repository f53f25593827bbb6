-- The value written by an in-place update may not share the target's
-- storage (U-Update; code update-aliases-target): the row `xss[1]` aliases
-- `xss`.
-- ==
-- error: aliases the target

def main (xss: *[][]i32) : [][]i32 =
  xss with [0] = xss[1]
