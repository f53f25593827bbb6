-- Nested modules in signatures: a functor returning its parameter's component,
-- a functor inside an opaquely ascribed structure and its projection, `with`
-- on a nested module's type, ascription to a refined signature, and `open`.
module type S = { type t  val x: t  val f: t -> t }
module M = { type t = i32  def x : t = 1  def f (y: t) : t = y + 1 }
module F (X: { module A: S }) = X.A
module R = F { module A = M }
def r : i32 = R.f R.x
module G (X: S) : S = { type t = X.t  def x = X.x  def f (y: t) : t = X.f y }
module W : { module G: S -> S  type u } = { module G = G  type u = i32 }
module V = W.G(M)
module Z = { module Inner : S with t = i32 = M }
module type T = { module Inner : S } with Inner.t = i32
module Y : T = Z
def y : i32 = Y.Inner.x
open Y
def z : i32 = Inner.f y
