-- Each branch is judged from what was consumed before the `if` (U-If):
-- both branches may consume `xs`.
-- ==
-- input { true [1, 2] } output { [9, 2] }
-- input { false [1, 2] } output { [1, 9] }

def main (b: bool) (xs: *[]i32) : []i32 =
  if b then xs with [0] = 9 else xs with [1] = 9
