-- A polymorphic wrapper around map, used at two types.
-- ==
-- input { [1, 2] [1.5, 2.5] } output { [2, 3] [3.0, 5.0] }
def mapper 'a 'b (f: a -> b) (xs: []a) : []b = map f xs
def main (xs: []i32) (ys: []f64) = (mapper (+ 1) xs, mapper (* 2.0) ys)
