-- The destination of `scatter` must be consumable (U-SOAC, U-Consume).
-- ==
-- error: Would consume `dest`, which is not consumable

def main [n] (dest: []i32) (is: [n]i64) (vs: [n]i32) : []i32 =
  scatter dest is vs
