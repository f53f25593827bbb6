-- ICFP'18 §10's Game of Life with Conway's rules, without modules: the rule
-- set is a record of functions passed to a generic `step` (a higher-order
-- function standing in for the parametric module `gen_life`). The board is
-- a torus. Expected boards as in examples/paper/life/main.fut.
-- ==
-- input { 1
--         [[false, true, false, false, false, false],
--          [false, false, true, false, false, false],
--          [true, true, true, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false]] }
-- output { [[false, false, false, false, false, false],
--           [true, false, true, false, false, false],
--           [false, true, true, false, false, false],
--           [false, true, false, false, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false]] }
-- input { 4
--         [[false, true, false, false, false, false],
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

type^ rules 'cell = {step: cell -> i32 -> cell, value: cell -> i32, weights: [][]i32}

def conway : rules bool =
  { step = \(alive: bool) (neighbours: i32) ->
      neighbours >= 2 && (neighbours == 3 || (alive && neighbours < 4))
  , value = \(b: bool) -> if b then 1 else 0
  , weights = [[1,1,1], [1,0,1], [1,1,1]] }

def all_neighbour_sums [n][m] 'cell (r: rules cell) (world: [n][m]cell) : [n][m]i32 =
  let values = map (map r.value) world
  let sum_at (i: i64) (j: i64) : i32 =
    loop s = 0 for k < 9i64 do
      let di = k / 3 - 1
      let dj = k % 3 - 1
      in s + r.weights[di + 1, dj + 1] * values[(i + di + n) % n, (j + dj + m) % m]
  in map (\i -> map (\j -> sum_at i j) (iota m)) (iota n)

def step [n][m] 'cell (r: rules cell) (world: [n][m]cell) : [n][m]cell =
  let all_sums = all_neighbour_sums r world
  in map2 (map2 r.step) world all_sums

def main [n][m] (gens: i32) (board: [n][m]bool) : [n][m]bool =
  loop world = board for _i < gens do step conway world
