-- Higher-order modules: a functor taking a structure that contains a functor
-- (as Fig. 3), a more general functor passed where a specific one is specified
-- (instantiation is contravariant in the parameter, SPEC_NOTES ICFP18-4), a
-- concrete result where an abstract one is specified (the paper's example after
-- §4.2), and a functor returning a functor (ICFP18-5).
module type HasF = { module F: (X: { type t  val x: t }) -> { val y: X.t } }

module Apply (M: HasF) = {
  module R = M.F { type t = i32  def x = 5 }
  def out : i32 = R.y
}

-- The argument's F works for every t; HasF asks the same.
module UseGeneric = Apply {
  module F = \(X: { type t  val x: t }) -> { def y : X.t = X.x }
}

module type MakesT = { module G: (X: {}) -> { type t  val v: t } }
module Concrete = {
  module G = \(X: {}) -> { type t = i32  def v = 3 }
}
module UseConcrete = (\(M: MakesT) -> { module R = M.G {} }) Concrete

module Curried (A: { val a: i32 }) = \(B: { val b: i32 }) -> { def sum : i32 = A.a + B.b }
module Partial = Curried { def a = 1 }
module Full = Partial { def b = 2 }

def main (z: i32) : i32 = UseGeneric.out + Full.sum + z
