-- `reduce_by_index` takes indices and values of one size `[n]`, like
-- `scatter` (scatter_indices_and_values_of_two_sizes.fut).
-- ==
-- error: sizes do not match

def main (is: []i64) (vs: []i32) : []i32 =
  reduce_by_index (replicate 3 0) (+) 0 is vs
