-- Game of Life, the modular library version (ICFP'18 §10): Conway's rules
-- through the generic `gen_life` functor of examples/paper/life/. Steps a
-- torus board `gens` generations. Compare life_specialised.fut, the same
-- computation written as one function by hand: the paper's claim is that the
-- modules cost nothing at run time.
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

import "../../examples/paper/life/conway"

-- Generations per run (an input would be a random i32 under `random input`).
def generations : i32 = 4

entry main [n][m] (board: [n][m]bool) : [n][m]bool =
  let world = map (map conway_rules.init) board
  let world = loop world for _i < generations do conway.step world
  in map (map conway_rules.uninit) world
