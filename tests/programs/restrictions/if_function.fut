-- A conditional may not return a function (TFP'18 §2.2, T-If).
-- ==
-- error: T-If
def main (b: bool) (x: i32) =
  let f = if b then \(y: i32) -> y + 1 else \(y: i32) -> y - 1
  in f x
