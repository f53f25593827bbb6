-- A matrix of booleans, negated elementwise.
-- ==
-- input { [[true, false], [false, false]] } output { [[false, true], [true, true]] }
def main (m: [][]bool) = map (map (\b -> !b)) m
