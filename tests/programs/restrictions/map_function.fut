-- map may not produce an array of functions (TFP'18 §2.2, T-Map).
-- ==
-- error: T-Map
def main (xs: []i32) =
  let fs = map (\x -> \(y: i32) -> x + y) xs
  in 0
