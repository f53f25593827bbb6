-- An argument passed for a unique parameter may not alias another argument
-- of the same call (U-SelfAlias; code self-aliasing-arg).
-- ==
-- error: self-aliased

def overwrite (a: *[]i32) (b: []i32) : *[]i32 =
  a with [0] = b[1]

def main (xs: *[]i32) : []i32 =
  overwrite xs xs
