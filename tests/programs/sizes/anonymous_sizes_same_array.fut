-- An anonymous parameter size `[]` is rigid but equal to itself: the same
-- array (or arrays derived from it by size-preserving functions) where one
-- size `[n]` is required is accepted and runs (SPEC_NOTES TFP18-22).
-- ==
-- input { [1, 2, 3] }
-- output { [3, 6, 9] }

def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

entry main (xs: []i32) : []i32 =
  let doubled = map (\x -> x * 2) xs
  in add xs (reverse (reverse doubled))
