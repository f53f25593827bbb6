-- Game of Life, hand-specialised: Conway's rules on a torus written as one
-- function, the eight neighbours summed explicitly. Computes what
-- life_modular.fut computes through the module library.
-- ==
-- input { [[false, true, false, false, false, false],
--          [false, false, true, false, false, false],
--          [true, true, true, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false]] }
-- output { [[false, false, false, false, false, false],
--           [false, false, true, false, false, false],
--           [false, false, false, true, false, false],
--           [false, true, true, true, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false]] }
-- random input { [12][10]bool }

-- ==
-- tags { large }
-- notest random input { [1000][1000]bool }

def generations : i32 = 4

entry main [n][m] (board: [n][m]bool) : [n][m]bool =
  loop board for _i < generations do
    map (\i ->
           map (\j ->
                  let up = (i + n - 1) % n
                  let down = (i + 1) % n
                  let left = (j + m - 1) % m
                  let right = (j + 1) % m
                  let alive (r: i64) (c: i64) : i32 = if board[r, c] then 1 else 0
                  let sum = alive up left + alive up j + alive up right
                          + alive i left + alive i right
                          + alive down left + alive down j + alive down right
                  in sum == 3 || (board[i, j] && sum == 2))
               (iota m))
        (iota n)
