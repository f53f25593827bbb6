-- A module-free program that names a numeric module (`i32.i64`) goes
-- through the module calculus; its parametric abbreviation, used inside a
-- `let` and a `map`'s lambda, must be expanded there as on the module-free
-- path (the reference once said "unknown type pair": verdict oracle, seed
-- 1657719550).
-- ==
-- input { 5i32 } output { 10i32 [2i32, 4i32] }

type pair 'a = (a, a)

def main (x: i32) : (i32, []i32) =
  let f = \(p: pair i32) -> p.0 + p.1
  let ys = map (\(p: pair i32) -> p.0 * p.1) (zip [1i32, 2i32] [2i32, 2i32])
  in (f (x, i32.i64 5i64), ys)
