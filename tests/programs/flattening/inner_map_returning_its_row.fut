-- An inner map that keeps one of the rows it is given: the simplifier drops
-- the rows it never reads and then the map itself (`map (\x -> x) row` is
-- `row`), so the outer body only checks the rows' sizes and returns its
-- row. F-Copy reads that as `map (\x -> x) row` again: one segmented map
-- over both dimensions, the size checks hoisted before it, in order.
-- ==
-- input { [[true, false], [false, true]] [[1u8, 2u8], [3u8, 4u8]] [[0.5f32, 1f32], [2f32, 4f32]] }
-- output { [[true, false], [false, true]] }
-- input { empty([0][2]bool) empty([0][2]u8) empty([0][2]f32) }
-- output { empty([0][2]bool) }
-- input { [[true, false]] [[1u8, 2u8, 3u8]] [[0.5f32, 1f32]] }
-- error: Size mismatch
-- input { [[true, false]] [[1u8, 2u8]] [[0.5f32]] }
-- error: Size mismatch
def main [n][a][b][c] (flags: [n][a]bool) (bytes: [n][b]u8) (weights: [n][c]f32) : [n][a]bool =
  map3 (\fs bs ws -> map3 (\f _ _ -> f) fs (bs :> [a]u8) (ws :> [a]f32))
       flags bytes weights
