-- Arrays of sum values.
-- ==
-- input { [1, -2, 3] } output { 4 }
type opt = #none | #some i32
def main (xs: []i32) =
  let os = map (\x -> if x > 0 then #some x else #none) xs : []opt
  in reduce (+) 0 (map (\o -> match o case #some v -> v case #none -> 0) os)
