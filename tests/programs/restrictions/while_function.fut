-- A while loop may not produce a function (T-While, as T-Loop).
-- ==
-- error: T-While
def main (x: i32) =
  let f = loop f = (\(y: i32) -> y) while false do f
  in f x
