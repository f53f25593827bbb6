-- Functions may be used inside a loop, as long as the loop's value is not
-- a function.
-- ==
-- input { 5 } output { 15 }
def main (n: i32) =
  let add = \(a: i32) (b: i32) -> a + b
  in loop acc = 0 for i < n + 1 do add acc i
