-- The accepted form of loop_body_reads_its_consumed_initial_value.fut: the
-- loop consumes a copy.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 3] }

def main (xs: []i32) : []i32 =
  loop acc = copy xs for i < 2 do acc with [i] = xs[i + 1]
