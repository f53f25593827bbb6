-- A map over an empty array has rows of the shape its function gives a
-- row, also when that function reads the empty array itself: here the
-- rows of `iota n` index `board`, which has no rows when n = 0, and the
-- result is still `[0][m]`, as in Futhark (SPEC_NOTES TFP18-6; found by
-- hand with tests/programs/soacs/stencil_constant_loop.fut).
-- ==
-- input { empty([0][3]bool) } output { empty([0][3]bool) }
-- input { [[true, false, true]] } output { [[false, true, false]] }
entry main [n][m] (board: [n][m]bool) : [n][m]bool =
  map (\i -> map (\j -> !board[i, j]) (iota m)) (iota n)
