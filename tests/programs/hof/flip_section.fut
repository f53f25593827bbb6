-- flip applied to an operator section.
-- ==
-- input { [1, 2] } output { [0, 1] }
def main (xs: []i32) = map (flip (-) 1) xs
