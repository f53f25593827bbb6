-- The rows of the array a `for … in` loop walks alias that array: returning
-- one for a loop parameter the body updates in place would let the next
-- iteration write into `rows` (loop-aliases).
-- ==
-- error: Return value for consuming loop parameter `acc` aliases `rows`

def main (rows: [][3]i32) : [3]i32 =
  loop acc = replicate 3 0i32 for row in rows do
    let acc' = acc with [0] = row[0]
    in if acc'[0] > 0 then row else acc'
