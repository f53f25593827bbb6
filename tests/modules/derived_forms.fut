-- The derived forms of eqs. (1)–(8): functor declarations with parameters and
-- result signatures (eqs. 1, 6, 7), application of a non-identifier (eq. 4,
-- which uses projection: rules 26 and 56), Futhark's `local` (eqs. 2 and 3),
-- functor lambdas with a result signature, anonymous functor types, opaque and
-- transparent signatures, and projections of nested modules and functors.
module type Num = { type t  val one: t  val plus: t -> t -> t }

module Int : Num with t = i32 = {
  type t = i32
  def one : i32 = 1
  def plus (a: i32) (b: i32) : i32 = a + b
}

-- eq. (1) with two parameters (curried), eq. (7)
module Pair (A: Num) (B: Num with t = A.t) : { val two: A.t } = {
  def two : A.t = A.plus A.one B.one
}

-- eq. (4): the functor is not a long identifier
module Two = (Pair Int) Int

-- a lambda with a result signature and an anonymous functor type
module Twice : Num -> { val twice: i32 -> i32 } =
  \(N: Num) : { val twice: i32 -> i32 } -> { def twice (x: i32) : i32 = x + x }
module T2 = Twice Int

-- `local` (eqs. 2, 3): helper is not exported
module Hidden = {
  local def helper (x: i32) : i32 = x * 3
  def triple (y: i32) : i32 = helper y
}

-- projection of a nested module and of a nested functor (rules 26, 56)
module Outer = { module Inner = { def v = 7 }  module F (X: {val v: i32}) = { def w : i32 = X.v + 1 } }
module InnerAlias = Outer.Inner
module FAlias = Outer.F
module W = FAlias(InnerAlias)

-- eq. (6): module X : mty = mexp (opaque)
module Abs : { type t  val make: i32 -> t  val get: t -> i32 } = {
  type t = i32
  def make (x: i32) : t = x
  def get (x: t) : i32 = x
}

def main (x: i32) : i32 =
  Abs.get (Abs.make (Two.two + T2.twice x + Hidden.triple W.w))
