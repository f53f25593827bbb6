-- ICFP'18 §10: Conway's rules (two states) and the game built from them.
--
-- Changes from the paper: `let` is `def`; `val weights = ...` is `def weights
-- = ...` (a value declaration in current Futhark).

import "argb"
import "life"

module conway_rules: vis_rules with cell = bool = {
  type cell = bool
  def step (alive: cell) (neighbours: i32) =
    neighbours >= 2 && (neighbours == 3 || (alive && neighbours < 4))
  def value (b: cell) = if b then 1 else 0
  def weights = [[1,1,1], [1,0,1], [1,1,1]]
  def init (b: bool) = b
  def uninit (c: cell) = c
  def colour (b: cell) = if b then argb.black else argb.white
  }
module conway = gen_life_vis conway_rules
