-- map producing triples, unzip3.
-- ==
-- input { [1, 2] } output { [1, 2] [2, 3] [3, 4] }
def main (xs: []i32) = unzip3 (map (\x -> (x, x + 1, x + 2)) xs)
