-- The accepted form of update_of_a_non_unique_parameter.fut: the
-- parameter is unique, so the update may happen in place.
-- ==
-- input { [1, 2, 3] } output { [7, 2, 3] }

def main (xs: *[]i32) : *[]i32 =
  let xs[0] = 7
  in xs
