-- Loops whose updated parameter gets back its own storage or fresh storage
-- are accepted: an accumulator updated from the rows it walks, and a row
-- copied before it is returned for the updated parameter.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [4, 0, 0] [4, 5, 6] }

def main (rows: [][3]i32) : ([3]i32, [3]i32) =
  let acc = loop acc = replicate 3 0i32 for row in rows do acc with [0] = row[0]
  let last = loop last = replicate 3 0i32 for row in rows do
    let last' = last with [0] = 0
    in if last'[0] == 0 then copy row else last'
  in (acc, last)
