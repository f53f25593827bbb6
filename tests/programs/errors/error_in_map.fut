-- An error inside a mapped function propagates (E-Map's error twin).
-- ==
-- input { [0i64, 1i64] } output { [10, 20] }
-- input { [0i64, 4i64] } error: out of bounds
def main (is: []i64) = let t = [10, 20, 30] in map (\i -> t[i]) is
