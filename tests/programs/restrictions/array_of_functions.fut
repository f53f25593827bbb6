-- Arrays may not contain functions (TFP'18 §2.2, T-Array).
-- ==
-- error: T-Array
def main (x: i32) =
  let fs = [\(y: i32) -> y + 1, \(y: i32) -> y * 2]
  in fs[0] x
