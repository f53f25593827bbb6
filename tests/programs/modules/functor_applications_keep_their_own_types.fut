-- The positive side of generativity: each application's values work with
-- its own abstract type, an alias (`module C = A`) shares A's type, and a
-- functor applied inside another functor's body makes a new type per
-- application of the outer functor (both `twice` results count on their
-- own).
-- ==
-- input { 5i32 } output { 2i32 12i32 3i32 5i32 }
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

module twice (P: { val start : i32 }) = {
  module inner = mk_counter P
  def two = inner.read (inner.next (inner.next inner.zero))
}

module A = mk_counter { def start = 0i32 }
module B = mk_counter { def start = 10i32 }
module C = A
module T1 = twice { def start = 1i32 }

def main (k: i32) =
  ( A.read (C.next (A.next A.zero))
  , B.read (B.next (B.next B.zero))
  , T1.two
  , k
  )
