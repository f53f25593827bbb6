-- A 3x3 weighted stencil on a torus, as the ICFP'18 §10 Game of Life sums
-- neighbours: a loop with a constant trip count over a constant weight
-- table, reading a map of the board. The optimising compiler unrolls the
-- loop, folds the weights and recomputes the map at each read
-- (optimized/src/passes/unroll.rs, index_fusion.rs); `shifted` reads
-- without wrapping, so its reads past the edge must still fail.
-- ==
-- entry: wrapped
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[36, 42, 48], [48, 54, 60]] }
-- input { [[7]] }
-- output { [[90]] }

-- ==
-- entry: shifted
-- input { [[1, 2], [3, 4]] 0i64 }
-- output { [[10, 14], [26, 30]] }
-- input { [[1, 2], [3, 4]] 1i64 }
-- error: Index \[2\] out of bounds

def weights = [[0, 1, 0], [1, 2, 1], [0, 1, 0]]

entry wrapped [n][m] (board: [n][m]i32) : [n][m]i32 =
  let doubled = map (map (\x -> x * 2 + 1)) board
  in map (\i ->
            map (\j ->
                   loop s = 0 for k < 9i64 do
                     let di = k / 3 - 1
                     let dj = k % 3 - 1
                     in s + weights[di + 1, dj + 1] * doubled[(i + di + n) % n, (j + dj + m) % m])
                (iota m))
         (iota n)

entry shifted [n][m] (board: [n][m]i32) (offset: i64) : [n][m]i32 =
  let doubled = map (map (\x -> x * 2)) board
  in map (\i ->
            map (\j ->
                   loop s = 0 for k < 2i64 do
                     s + doubled[i + k * offset, j] + doubled[i, (j + k) % m])
                (iota m))
         (iota n)
