-- `==` and `!=` compare arrays, tuples and records structurally.
-- ==
-- input { [1, 2] [1, 2] } output { true false true }
-- input { [1, 2] [1, 3] } output { false true false }
-- input { [1, 2] [1, 2, 3] } output { false true false }
def main (a: []i32) (b: []i32) = (a == b, (a, 1) != (b, 1), {x = a} == {x = b})
