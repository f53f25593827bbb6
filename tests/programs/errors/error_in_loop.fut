-- An error in a loop body propagates (EL-Cons's error twin).
-- ==
-- input { 3 } output { 6 }
-- input { 4 } error: out of bounds
def main (n: i32) =
  let xs = [1, 2, 3]
  in loop s = 0 for i < n do s + xs[i64.i32 i]
