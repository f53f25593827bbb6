-- ICFP'18 §10: the generic Game of Life library. A rule set (`rules`) gives a
-- cell type and a step function; `gen_life` turns any rule set into a game
-- (`game_of_life`); `vis_rules`/`gen_life_vis` add visualisation.
--
-- Changes from the paper, to make it valid current Futhark: `let` in modules
-- is `def`; `→` is `->`; value specs may not have anonymous sizes left of an
-- arrow, so `step` and `render` get size parameters (`val step [n][m]:
-- [n][m]cell -> [n][m]cell`); the body of `all_neighbour_sums`, elided in the
-- paper, is written out (the board is a torus: it wraps around at the edges);
-- `argb` comes from ./argb.fut rather than Futhark's colour library.

import "argb"

module type rules = {
  type cell
  val step: cell -> i32 -> cell
  val value: cell -> i32
  val weights: [][]i32
}

module type game_of_life = {
  type cell
  val step [n][m]: [n][m]cell -> [n][m]cell
}

module gen_life(R: rules): game_of_life with cell = R.cell = {
  type cell = R.cell
  -- For each cell, the sum over its 3x3 neighbourhood (itself included) of
  -- each cell's `value` times the corresponding entry of `weights`.
  def all_neighbour_sums [n][m] (world: [n][m]cell): [n][m]i32 =
    let values = map (map R.value) world
    let sum_at (i: i64) (j: i64): i32 =
      loop s = 0 for k < 9i64 do
        let di = k / 3 - 1
        let dj = k % 3 - 1
        in s + R.weights[di + 1, dj + 1] * values[(i + di + n) % n, (j + dj + m) % m]
    in map (\i -> map (\j -> sum_at i j) (iota m)) (iota n)
  def step [n][m] (world: [n][m]cell): [n][m]cell =
    let all_sums = all_neighbour_sums world
    in map2 (map2 R.step) world all_sums
}

module type vis_rules = {
  include rules
  val colour: cell -> argb.colour
  val init: bool -> cell
  val uninit: cell -> bool
}

module type vis_game_of_life = {
  include game_of_life
  val render [n][m]: [n][m]cell -> [n][m]argb.colour
}

module gen_life_vis(R: vis_rules)
  : (vis_game_of_life with cell = R.cell) = {
  open (gen_life R)
  def render [n][m] (world: [n][m]cell): [n][m]argb.colour =
    map (map R.colour) world
  }
