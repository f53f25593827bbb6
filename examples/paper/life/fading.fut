-- ICFP'18 §10.1: multi-parameter parametric modules. `fading_life` is curried:
-- given how fast dead cells fade (`fading`), it returns a parametric module
-- from rule sets to rule sets whose cells remember their last living colour and
-- how long they have been dead. `slow_fader` partially applies it, and is then
-- applied to both earlier rule sets.
--
-- Changes from the paper: `let` is `def`; `λ(R: mty): mty → e` is
-- `\(R: mty): mty -> e`; `val x = e` in a module is `def x = e`; `init` gets the
-- result type `cell` and `dying_speed` the type `f32`, since their float
-- literals would otherwise default to `f64` before the modules are matched
-- against their module types.

import "argb"
import "life"
import "conway"
import "quad"

module type fading = { val dying_speed: f32 }

module fading_life (F: fading) : vis_rules -> vis_rules =
  \(R: vis_rules): vis_rules -> {
    type cell = (R.cell, argb.colour, f32)
    def value ((c,_,_): cell) = R.value c
    def weights = R.weights
    def init (b: bool): cell = (R.init b, argb.black, 10000.0)
    def uninit ((c,_,_): cell) = R.uninit c
    def dead (c: R.cell): bool = R.uninit c == false
    def step ((c,col,h): cell) (neighbours: i32) =
      let c' = R.step c neighbours
      let died = ! (dead c) && dead c'
      in (c', if died then R.colour c else col,
          if died then 0.0 else h + 1.0)
    def colour ((c,col,h): cell) =
      let normal = R.colour c in
      if dead c then argb.mix 1.0 col (h * F.dying_speed) normal
      else normal
  }

module slow_fader: (vis_rules -> vis_rules) = fading_life {
  def dying_speed: f32 = 0.1
}

module conway_fading = slow_fader conway_rules
module quad_fading = slow_fader quad_rules
