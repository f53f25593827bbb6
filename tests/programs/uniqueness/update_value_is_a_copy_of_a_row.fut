-- The accepted form of update_value_aliases_its_target.fut: a copy of the
-- row does not alias the target.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[3, 4], [3, 4]] }

def main (xss: *[][]i32) : [][]i32 =
  xss with [0] = copy xss[1]
