-- A match may not return a function (as T-If).
-- ==
-- error: T-Match
def main (x: i32) =
  let f = match x case 0 -> (\(y: i32) -> y) case _ -> (\(y: i32) -> y + 1)
  in f x
