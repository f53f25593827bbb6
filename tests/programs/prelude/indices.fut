-- `indices xs` is `iota (length xs)` with the size of `xs`, in Futhark's
-- prelude: zipped with the array, it numbers the elements; its result has
-- the array's size, so `zip` needs no coercion. Found missing while writing
-- the witness program of fuzz/tests/reduce_planted_bug.rs.
-- ==
-- input { [10, 20, 30] } output { [0i64, 1i64, 2i64] 80 }
-- input { empty([0]i32) } output { empty([0]i64) 0 }

def numbered [n] (xs: [n]i32) : [n](i64, i32) = zip (indices xs) xs

entry main (xs: []i32) : ([]i64, i32) =
  (indices xs, reduce (+) 0 (map (\(i, x) -> i32.i64 i * x) (numbered xs)))
