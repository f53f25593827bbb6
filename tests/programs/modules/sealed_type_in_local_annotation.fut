-- A sealed abstract type that only local functions' annotations mention
-- (`g` and `h` below, never applied: neither `main`'s type nor any label it
-- uses determines M.t) is the type the sealing found for it, so `[y, y, y]`
-- is an array of an order-zero type (SPEC_NOTES ICFP18-23). Generated module
-- programs failed Proposition 6.1 here ("an array element has type t#591,
-- which is not of order zero": value oracle, seed 100000).
-- ==
-- input { 3i32 } output { 4i64 6i32 }
-- input { -1i32 } output { 0i64 -2i32 }

module type S = { type t  val mk : i32 -> t  val get : t -> i32 }

module M : S = {
  type t = i32
  def mk (x: i32) : t = x + 1
  def get (x: t) : i32 = x * 2
}

def main (x: i32) : (i64, i32) =
  let g (y: M.t) : i64 = length [y, y, y]
  let h (ys: []M.t) : [1]M.t = [ys[0]]
  in (i64.i32 x + 1, x * 2)
