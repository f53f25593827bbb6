-- ICFP'18, Fig. 3a: the (contrived) running example of static interpretation.
-- Its elaborated environment is Fig. 5 (§4.5 walks through the derivation) and
-- static interpretation turns it into the target code of Fig. 3b:
--
--   val b = 8
--   val f = λ(x:i32) → b + x
--   val main = λ(a:i32) → f a
--
-- Changes from the figure, to make it valid current Futhark: core-level `let`
-- is `def`; `λ(X: mty) → mexp` is `\(X: mty) -> mexp`; `→` is `->`; the
-- functor type in `MT`, written `(X:{ val b:i32 } → { val f:i32→i32 })` in the
-- figure, is written `(X: { val b: i32 }) -> { val f: i32 -> i32 }`.

-- ==
-- input { 1 } output { 9 }
-- input { -8 } output { 0 }
-- input { 2147483640 } output { -2147483648 }

module type MT = {
  module F: (X: { val b: i32 }) -> { val f: i32 -> i32 }
}
module H = \(M: MT) -> M.F { def b = 8 }
module Main =
  H ( { module F =
    \(X: { val b: i32 }) -> { def f(x:i32) = X.b+x }
  })
def main (a:i32) : i32 = Main.f a
