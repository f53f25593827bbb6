-- all and any from the prelude.
-- ==
-- input { [2, 4, 6] } output { true true }
-- input { [1, 4, 6] } output { false true }
-- input { [1, 3] } output { false false }
def main (xs: []i32) = (all (\x -> x % 2 == 0) xs, any (\x -> x % 2 == 0) xs)
