-- A size coercion `ys :> [m]t` of a lambda parameter whose type is not
-- known yet tells the parameter's shape, not its size: `ys` keeps the size
-- `k` of the rows it is mapped over, so the program is well-typed, and
-- the coercion checks `k = m` where it runs (never when there is no row).
-- Flattening hoists that check out of the nest, guarded by the nest's
-- sizes (F-Assert).
-- ==
-- input { [[1, 2], [3, 4]] [[10, 20], [30, 40]] } output { [33, 77] }
-- input { empty([0][2]i32) empty([0][3]i32) } output { empty([0]i32) }
-- input { [[1, 2]] [[1, 2, 3]] } error: dimension 0 of the value does not have the size `m`
-- input { [[1, 2], [3, 4]] [[1, 2, 3]] } error: dimension 0 of `yss` does not have the size `n`
def main [n][m][k] (xss: [n][m]i32) (yss: [n][k]i32) : [n]i32 =
  map2 (\xs ys -> reduce (+) 0 (map2 (+) xs (ys :> [m]i32))) xss yss
