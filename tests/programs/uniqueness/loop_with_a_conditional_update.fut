-- A loop whose body updates its parameter in one branch only: the parameter
-- is consumed (U-Loop) and the loop's result is fresh storage.
-- ==
-- input { [5, 6, 7, 8] } output { [0, 6, 0, 8] }

def main (xs: *[]i32) : []i32 =
  loop acc = xs for i < length xs do
    if i % 2 == 0 then acc with [i] = 0 else acc
