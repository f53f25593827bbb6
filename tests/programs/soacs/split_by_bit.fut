-- A stable split by the lowest bit with scan and scatter (one pass of a
-- radix sort).
-- ==
-- input { [3, 2, 5, 8, 6, 1] } output { [2, 8, 6, 3, 5, 1] }
def main (xs: []i32) =
  let is_even = map (\x -> x % 2 == 0) xs
  let evens_before = scan (+) 0 (map (\b -> if b then 1 else 0) is_even)
  let num_evens = if length xs == 0 then 0 else evens_before[length xs - 1]
  let odds_before = scan (+) 0 (map (\b -> if b then 0 else 1) is_even)
  let dest = map3 (\b e o -> if b then i64.i32 (e - 1) else i64.i32 (num_evens + o - 1))
                  is_even evens_before odds_before
  in scatter (replicate (length xs) 0) dest xs
