-- ICFP'18 §10: a four-state Game of Life variant and the game built from it.
-- A cell is 0, 1, 2 or 3; the neighbourhood sum (weights all 1, the cell itself
-- included) indexes a table of next states. `init` makes live cells 0 and dead
-- cells 1, so an empty region (sum 9, table entry 1) stays empty.
--
-- Changes from the paper: `let` is `def`; `val weights = ...` is `def weights
-- = ...`; the conversions `i32 c` are `i32.i8 c`, and indices are converted to
-- `i64` (`t[i64.i32 neighbours]`, `colours[i64.i8 c]`), since current Futhark
-- has no conversion function named after a type; `init` gets the result type
-- `cell`, since its literals would otherwise default to `i32` before the module
-- is matched against `vis_rules`.

import "argb"
import "life"

module quad_rules: vis_rules = {
  type cell = i8
  def step (_c: cell) (neighbours: i32): i8 =
    let t = [0,0,0,2,2,3,3, 1,1,1,1,1,0,0,
             2,0,2,2,2,2,2, 0,2,1,2,3,3,3]
    in t[i64.i32 neighbours]
  def value (c: cell) = i32.i8 c
  def weights = [[1,1,1], [1,1,1], [1,1,1]]
  def init (b: bool): cell = if b then 0 else 1
  def uninit (c: cell) = c != 1
  def colour (c: cell) =
    let colours = [argb.green, argb.black, argb.red, argb.blue]
    in colours[i64.i8 c]
  }
module quad = gen_life_vis quad_rules
