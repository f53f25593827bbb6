-- A loop may not produce a function (TFP'18 §2.2, T-Loop).
-- ==
-- error: T-Loop
def main (n: i32) (x: i32) =
  let f = loop f = (\(y: i32) -> y) for i < n do (\(y: i32) -> f y + 1)
  in f x
