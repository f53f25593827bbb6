-- A parametric type abbreviation applied to a module's abstract type, in
-- places the §8.2 derived form (ICFP'18) must reach: an ascription inside a
-- projection, a lambda's parameter inside a `let`, a record type's field, a
-- functor's body (`pair X.t`) and the top level (`pair M.t`). The reference
-- once rejected these ("unknown type pair", "the qualified type X.t needs
-- the module calculus": fuzz/findings/value_campaigns.md, seeds 2026,
-- 1657719550 and 2091004298).
-- ==
-- input { 3i32 } output { 7i32 10i32 }

type pair 'a = (a, a)

module type S = {
  type t
  val mk : i32 -> t
  val get : t -> i32
}

module M : S = {
  type t = i32
  def mk (x: i32) : t = x
  def get (x: t) : i32 = x
}

module F (X: S) = {
  def both (x: i32) : pair X.t =
    ({x = 1i64, y = (X.mk x, X.mk (x + 1))} : {x: i64, y: pair X.t}).y

  def sum (x: i32) : i32 =
    let p = both x
    in (\(q: pair X.t) -> X.get q.0 + X.get q.1) p
}

module N = F M

def twice (x: i32) : i32 =
  let r : {a: pair M.t, b: i32} = {a = (M.mk x, M.mk (x + 1)), b = x}
  let f = \(q: pair M.t) -> M.get q.0 + M.get q.1 + r.b
  in if x > 0 then f r.a else 0

def main (x: i32) : (i32, i32) = (N.sum x, twice (x + 0))
