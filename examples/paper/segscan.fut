-- ICFP'18 (Elsman, Henriksen, Annenkov, Oancea: "Static Interpretation of
-- Higher-Order Modules in Futhark"), Fig. 2: segmented scan implemented at
-- library level with a parametric module over a monoid.
--
-- Changes from the figure, to make it valid current Futhark:
-- * top-level `let` is `def`; `λE : mty → e` is `\(E: mty) -> e`; `→` is `->`.
-- * `intrinsics.+` (the 2018 built-in) is written `i32.+`: inside the new module
--   `i32` the name `i32` still means the prelude's module, since module bindings
--   are not recursive.
-- * value specs may not have anonymous sizes left of an arrow, so `bulkop` gets a
--   size parameter: `val bulkop [n]: [n]bool -> [n]M.t -> [n]M.t`, and `main`
--   takes `[n]`-sized arrays to match.
-- * the figure elides the other SOACs of module `SOACs` ("...") and the body of
--   `bulkop`; the body is written out below (the standard segmented scan: an
--   ordinary `scan` over (flag, value) pairs with the segmented operator).
-- * Futhark has no projection from an applied module (`SOACs(i32).SgmScan`), so
--   the application `SOACs(i32)` is bound to a name first.

-- ==
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 4, 9] }
-- input { [false, false, true, true] [5, -1, 2, 7] }
-- output { [5, 4, 2, 7] }
-- input { empty([0]bool) empty([0]i32) }
-- output { empty([0]i32) }

module type Numeric = {
  type t
  val zero : t
  val + : t -> t -> t
}

module i32: Numeric with t = i32 = {
  type t = i32
  def zero : i32 = 0i32
  def (x:i32) + (y:i32) = x i32.+ y
}

module type Monoid = {
  type t            -- element type.
  val ne: t         -- Neutral element.
  val op: t -> t -> t -- Associative op.
}

module Plus(N : Numeric) : Monoid with t = N.t = {
  type t = N.t
  def ne : N.t = N.zero
  def op (a : N.t) (b : N.t) : N.t = a N.+ b
}

module SOACs = \(E : {type t}) -> {
  module SgmScan (M : Monoid with t = E.t)
    : { val bulkop [n]: [n]bool -> [n]M.t -> [n]M.t } = {
    -- A segment starts at each `true` flag. Pairing every element with its
    -- flag makes the segmented operator associative with neutral element
    -- (false, M.ne): a flag on the right operand discards the left sum.
    def bulkop [n] (flag: [n]bool) (arr: [n]M.t): [n]M.t =
      let sgm_op (f1: bool, x1: M.t) (f2: bool, x2: M.t): (bool, M.t) =
        (f1 || f2, if f2 then x2 else M.op x1 x2)
      let (_, res) = unzip (scan sgm_op (false, M.ne) (zip flag arr))
      in res
  }
}

module SOACs_i32 = SOACs(i32)
module SegSum = SOACs_i32.SgmScan(Plus(i32))

def main [n] (flag : [n]bool) (arr : [n]i32) : [n]i32 =
  SegSum.bulkop flag arr
