-- Functor application is generative (ICFP'18 rule 17; Futhark): each
-- application of `mk_counter` makes its own abstract type `t`, so a value of
-- `A.t` is not a `B.t`, even though both are `i32` inside. The optimising
-- checker accepted this program (it made the body's abstract types once, at
-- the functor's definition; found on a corpus of real Futhark programs,
-- issue 26); the reference rejects it.
-- ==
-- error: expected .*t.*found .*t
module type counter = {
  type t
  val zero : t
  val next : t -> t
  val read : t -> i32
}

module mk_counter (P: { val start : i32 }) : counter = {
  type t = i32
  def zero = P.start
  def next (x: i32) = x + 1
  def read (x: i32) = x
}

module A = mk_counter { def start = 0i32 }
module B = mk_counter { def start = 10i32 }

def main (k: i32) : i32 = B.read (A.next A.zero) + k
