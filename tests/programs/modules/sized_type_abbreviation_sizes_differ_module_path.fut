-- The sizes a sized abbreviation names are still checked: `dot` needs two
-- vectors of one size, and `main`'s two parameters have distinct sizes
-- (here with `f32.sum`, on the reference's module-calculus path).
-- ==
-- error: size

type vec [n] = [n]f32

def dot [n] (a: vec [n]) (b: vec [n]) : f32 = f32.sum (map2 (*) a b)

def main [n][m] (a: [n]f32) (b: [m]f32) = dot a b
