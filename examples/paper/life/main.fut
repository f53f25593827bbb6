-- ICFP'18 §10: entry points running the four Game of Life variants of the
-- paper (`conway`, `quad`, and their fading versions `conway_fading` and
-- `quad_fading`) on a glider. Each takes a number of generations and a board
-- of booleans, turns it into cells with the rule set's `init`, steps the game,
-- and turns the cells back into booleans with `uninit`. The board is a torus.
--
-- Not in the paper: the entry points and the `runner` parametric module (two
-- parameters, the second depending on the first). Module and value names share
-- a name space, so the entry points cannot be called `conway` etc.
--
-- The expected boards were computed by an independent simulation and checked
-- by hand. Under Conway's rules the glider moves one cell down and right every
-- 4 generations; the fading variants step the same underlying cells (fading
-- changes only colours), so they share the tests. Under the four-state rules
-- the glider blows up and then dies out (a cell is alive when its state is not
-- 1).

-- ==
-- entry: conway_glider conway_fading_glider
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

-- ==
-- entry: quad_glider quad_fading_glider
-- input { 1
--         [[false, true, false, false, false, false],
--          [false, false, true, false, false, false],
--          [true, true, true, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false]] }
-- output { [[false, false, false, false, false, false],
--           [true, true, true, false, false, false],
--           [false, true, true, false, false, false],
--           [false, true, false, false, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false]] }
-- input { 2
--         [[false, true, false, false, false, false],
--          [false, false, true, false, false, false],
--          [true, true, true, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false],
--          [false, false, false, false, false, false]] }
-- output { [[true, true, true, false, false, false],
--           [true, true, true, true, false, false],
--           [true, true, true, true, false, false],
--           [true, true, true, false, false, false],
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
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false],
--           [false, false, false, false, false, false]] }

-- Conway's cells are drawn black when alive and white when dead.
-- ==
-- entry: conway_render
-- input { [[true, false], [false, true]] }
-- output { [[4278190080u32, 4294967295u32], [4294967295u32, 4278190080u32]] }

import "argb"
import "life"
import "conway"
import "quad"
import "fading"

module runner (R: vis_rules) (G: vis_game_of_life with cell = R.cell) = {
  def run [n][m] (gens: i32) (board: [n][m]bool): [n][m]bool =
    let world = map (map R.init) board
    let world = loop world for _i < gens do G.step world
    in map (map R.uninit) world
}

module conway_run = runner conway_rules conway
module quad_run = runner quad_rules quad
module conway_fading_run = runner conway_fading (gen_life_vis conway_fading)
module quad_fading_run = runner quad_fading (gen_life_vis quad_fading)

entry conway_glider [n][m] (gens: i32) (board: [n][m]bool): [n][m]bool =
  conway_run.run gens board

entry quad_glider [n][m] (gens: i32) (board: [n][m]bool): [n][m]bool =
  quad_run.run gens board

entry conway_fading_glider [n][m] (gens: i32) (board: [n][m]bool): [n][m]bool =
  conway_fading_run.run gens board

entry quad_fading_glider [n][m] (gens: i32) (board: [n][m]bool): [n][m]bool =
  quad_fading_run.run gens board

entry conway_render [n][m] (board: [n][m]bool): [n][m]argb.colour =
  conway.render (map (map conway_rules.init) board)
