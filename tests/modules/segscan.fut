-- ICFP'18 Fig. 2 (segmented scan), its module skeleton over the paper's core:
-- the module structure of examples/paper/segscan.fut is kept (Numeric, an i32
-- instance ascribed `Numeric with t = i32`, Monoid, the functor Plus with a
-- `with` result, the curried SOACs/SgmScan and the applications), while the
-- core expressions are reduced to the paper fragment: arrays, tuples and
-- `scan` are outside it, so `bulkop` combines two elements with the monoid.
module type Numeric = {
  type t
  val zero : t
  val add : t -> t -> t
}

module i32: Numeric with t = i32 = {
  type t = i32
  def zero : i32 = 0i32
  def add (x:i32) (y:i32) : i32 = x + y
}

module type Monoid = {
  type t
  val ne: t
  val op: t -> t -> t
}

module Plus(N : Numeric) : Monoid with t = N.t = {
  type t = N.t
  def ne : N.t = N.zero
  def op (a : N.t) (b : N.t) : N.t = N.add a b
}

module SOACs = \(E : {type t}) -> {
  module SgmScan (M : Monoid with t = E.t)
    : { val bulkop : M.t -> M.t -> M.t } = {
    def bulkop (x: M.t) (y: M.t) : M.t = M.op (M.op M.ne x) y
  }
}

module SOACs_i32 = SOACs(i32)
module SegSum = SOACs_i32.SgmScan(Plus(i32))

def main (a : i32) (b : i32) : i32 =
  SegSum.bulkop a b
