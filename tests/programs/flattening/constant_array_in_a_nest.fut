-- A table of constants read inside a map, in one branch (as
-- examples/paper/life's fading glider reads its colours): F-Constant builds
-- it once, before the segmented map, instead of at every point (a kernel
-- could not build it at all, so the whole map ran on the host). Its
-- companion, constant_array_updated_in_a_nest.fut, updates its table.
-- ==
-- input { [0i64, 3i64, 1i64, 2i64] [true, false, true, true] }
-- output { [10u32, 0u32, 20u32, 30u32] }
-- input { [4i64] [true] }
-- error: out of bounds

def main [n] (keys: [n]i64) (lit: [n]bool) : [n]u32 =
  map2 (\k on -> if on then [10u32, 20u32, 30u32, 40u32][k] else 0u32) keys lit
