-- runestone-options: or-conditionals
-- TFP'18 §7: with the extension on, a conditional may return a function;
-- its static value is `Or`, its residual a sum `#l env | #r env`, and the
-- application matches on it.
-- ==
-- input { true 5 } output { 6 }
-- input { false 5 } output { 10 }
def main (b: bool) (x: i32) =
  let f = if b then \(y: i32) -> y + 1 else \(y: i32) -> y * 2
  in f x
