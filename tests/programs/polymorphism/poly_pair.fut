-- A polymorphic function returning a pair, with a size parameter.
-- ==
-- input { [1, 2, 3] } output { 1 3 }
def ends [n] 't (xs: [n]t) : (t, t) = (xs[0], xs[n - 1])
def main (xs: []i32) = ends xs
