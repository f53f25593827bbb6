-- Without the option, the same program is rejected (T-If).
-- ==
-- error: T-If
def main (b: bool) (x: i32) =
  let f = if b then \(y: i32) -> y + 1 else \(y: i32) -> y * 2
  in f x
