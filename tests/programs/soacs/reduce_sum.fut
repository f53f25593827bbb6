-- reduce with an operator section.
-- ==
-- input { [1, 2, 3, 4, 5] } output { 15 }
-- input { empty([0]i32) } output { 0 }
def main (xs: []i32) = reduce (+) 0 xs
