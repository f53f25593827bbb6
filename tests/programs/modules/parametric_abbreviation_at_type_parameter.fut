-- A parametric abbreviation applied to a type parameter of the enclosing
-- `def` or `val` specification (`pair a`): on the TFP'18 core, which has
-- polymorphism of its own, §8.2's application cannot be placed before the
-- declaration (where `a` is unbound), so the abbreviation is expanded there
-- (SPEC_NOTES ICFP18-16; the reference once said "unknown type a5": value
-- oracle, seed 1657719550, program 933).
-- ==
-- input { 3i32 } output { true 6i32 }

type pair 'a = (a, a)

def same 'a (x: a) : bool =
  let (y, z) = (x, x) : pair a
  let f = \(p: pair a) -> (p.1, p.0)
  let (u, v) = f (y, z)
  in true

module type S = { val twice 'a : a -> pair a }

module M : S = { def twice 'a (x: a) : pair a = (x, x) }

def main (x: i32) : (bool, i32) = (same x, (M.twice x).0 + i32.i64 3i64)
