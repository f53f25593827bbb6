-- The prelude's functions are checked by the signatures the prelude
-- states: here every size they require equal is one size, so the program
-- is well typed and runs (the companion of
-- hist_indices_and_values_of_two_sizes.fut and
-- scatter_2d_indices_and_values_of_two_sizes.fut).
-- ==
-- input { [0i64, 2i64, 1i64] [1, 2, 3] }
-- output { [1, 3, 2] [[1, 0, 0], [0, 3, 0], [0, 0, 2]] [1, 9, 4] }

def main [n] (is: [n]i64) (vs: [n]i32) =
  let h = hist (+) 0 3 is vs
  let grid = scatter_2d (replicate 3 (replicate 3 0)) (zip is is) vs
  let s = spread 3 0 is (map4 (\a b c d -> a * b - c + d) vs vs vs vs)
  in (h, grid, s)
