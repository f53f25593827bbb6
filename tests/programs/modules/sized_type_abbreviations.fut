-- Type abbreviations with size parameters, in a program that uses the
-- prelude's modules (`f32.sum`), so the reference takes the module-calculus
-- path: `vec [n]` is its definition with `n` for the parameter, and an
-- abbreviation with a size and a type parameter erases the size
-- (SPEC_NOTES ICFP18-27).
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32]] [1f32, 1f32] }
-- output { [3f32, 7f32] 10f32 1f32 }

type vec [n] = [n]f32
type mat [n][m] = [n][m]f32
type arr [n] 't = [n]t

def mv [n][m] (a: mat [n][m]) (v: vec [m]) : vec [n] =
  map (\row -> f32.sum (map2 (*) row v)) a

def first [n] 't (xs: arr [n] t) : t = xs[0]

def main [n][m] (a: [n][m]f32) (v: [m]f32) =
  (mv a v, f32.sum (flatten a), first v)
