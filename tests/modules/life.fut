-- ICFP'18 §10 (Game of Life library), its module skeleton over the paper's
-- core: the module types rules, game_of_life, vis_rules (with include),
-- vis_game_of_life, the functors gen_life and gen_life_vis (with open of an
-- application), the rule sets conway_rules (transparent `with cell = i32`) and
-- quad_rules (opaque), the curried fading_life ascribed a functor type, its
-- partial application slow_fader, and the four games. Arrays, booleans,
-- tuples and floats are outside the paper's core: cells, colours, weights and
-- boards are i32 and the step functions are reduced to the paper fragment.
module argb = {
  type colour = i32
  def black : colour = 0
  def white : colour = 1
  def mix (w1: i32) (c1: colour) (w2: i32) (c2: colour) : colour = w1 * c1 + w2 * c2
}

module type rules = {
  type cell
  val step: cell -> i32 -> cell
  val value: cell -> i32
  val weights: i32
}

module type game_of_life = {
  type cell
  val step: cell -> cell
}

module gen_life(R: rules): game_of_life with cell = R.cell = {
  type cell = R.cell
  def all_neighbour_sums (world: cell) : i32 = R.weights * R.value world
  def step (world: cell) : cell = R.step world (all_neighbour_sums world)
}

module type vis_rules = {
  include rules
  val colour: cell -> argb.colour
  val init: i32 -> cell
  val uninit: cell -> i32
}

module type vis_game_of_life = {
  include game_of_life
  val render: cell -> argb.colour
}

module gen_life_vis(R: vis_rules) : (vis_game_of_life with cell = R.cell) = {
  open (gen_life R)
  def render (world: cell) : argb.colour = R.colour world
}

module conway_rules: vis_rules with cell = i32 = {
  type cell = i32
  def step (alive: cell) (neighbours: i32) : cell = alive * neighbours
  def value (b: cell) : i32 = b
  def weights : i32 = 8
  def init (b: i32) : cell = b
  def uninit (c: cell) : i32 = c
  def colour (b: cell) : argb.colour = argb.mix 1 argb.black b argb.white
}
module conway = gen_life_vis conway_rules

module quad_rules: vis_rules = {
  type cell = i32
  def step (c: cell) (neighbours: i32) : i32 = neighbours - c
  def value (c: cell) : i32 = c
  def weights : i32 = 9
  def init (b: i32) : cell = b - 1
  def uninit (c: cell) : i32 = c + 1
  def colour (c: cell) : argb.colour = c
}
module quad = gen_life_vis quad_rules

module type fading = { val dying_speed: i32 }

module fading_life (F: fading) : vis_rules -> vis_rules =
  \(R: vis_rules): vis_rules -> {
    type cell = R.cell
    def value (c: cell) : i32 = R.value c
    def weights : i32 = R.weights
    def init (b: i32) : cell = R.init b
    def uninit (c: cell) : i32 = R.uninit c
    def step (c: cell) (neighbours: i32) : cell = R.step c neighbours
    def colour (c: cell) : argb.colour =
      argb.mix 1 (R.colour c) F.dying_speed argb.black
  }

module slow_fader: (vis_rules -> vis_rules) = fading_life {
  def dying_speed: i32 = 1
}

module conway_fading = slow_fader conway_rules
module quad_fading = slow_fader quad_rules

def conway_glider (n: i32) : i32 = conway.render (conway.step (conway_rules.init n))
def quad_glider (n: i32) : i32 = quad.render (quad.step (quad_rules.init n))
def quad_fading_glider (n: i32) : i32 =
  quad_fading.colour (quad_fading.step (quad_fading.init n) 3)
