-- An error in the body of a closure propagates through application
-- (E-AppErr0), also after defunctionalisation.
-- ==
-- input { 2i64 } output { 3 }
-- input { 7i64 } error: out of bounds
def main (i: i64) =
  let xs = [1, 2, 3]
  let f = \j -> xs[j]
  in f i
