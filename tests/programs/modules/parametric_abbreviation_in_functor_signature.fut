-- A parametric abbreviation applied to a functor parameter's type in the
-- functor's result signature (`val both : i32 -> pair X.t`), named and
-- anonymous: §8.2's application is placed inside the functor, where X is
-- bound (the reference once said "the qualified type X17.t needs the module
-- calculus": value oracle, seed 2091004298, program 1882).
-- ==
-- input { 4i32 } output { 9i32 }
-- input { -1i32 } output { -1i32 }

type pair 'a = (a, a)

module type S = { type t  val mk : i32 -> t  val get : t -> i32 }

module M : S = { type t = i32  def mk (x: i32) : t = x  def get (x: t) : i32 = x }

module F (X: S) : { val both : i32 -> pair X.t  val sum : pair X.t -> i32 } = {
  def both (x: i32) : pair X.t = (X.mk x, X.mk (x + 1))
  def sum (p: pair X.t) : i32 = X.get p.0 + X.get p.1
}

module N = F M

module G = \(Y: S) : { val swap : pair Y.t -> pair Y.t } -> {
  def swap (p: pair Y.t) : pair Y.t = (Y.mk (Y.get p.1), p.0)
}

module K = G M

def main (x: i32) : i32 = N.sum (K.swap (N.both x))
