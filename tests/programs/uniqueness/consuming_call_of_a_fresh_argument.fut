-- A fresh argument (a copy, a SOAC's result) may be passed for a unique
-- parameter (U-Apply).
-- ==
-- input { [1, 2, 3] } output { [5, 3, 4] [1, 2, 3] }

def set_first (a: *[]i32) (v: i32) : *[]i32 =
  a with [0] = v

def main (xs: []i32) : ([]i32, []i32) =
  (set_first (map (+ 1) xs) 5, xs)
