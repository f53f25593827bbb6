-- concat.
-- ==
-- input { [1, 2] [3] } output { [1, 2, 3] }
-- input { empty([0]i32) [3] } output { [3] }
def main (a: []i32) (b: []i32) = concat a b
