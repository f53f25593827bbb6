-- A projection section maps over an array of records.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] }
def main (xs: []i32) = map (.a) (map (\x -> {a = x, b = x * 2}) xs)
