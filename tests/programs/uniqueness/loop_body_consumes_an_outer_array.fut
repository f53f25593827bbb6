-- A loop body may not consume an array bound outside the loop (U-Loop):
-- the second iteration would see it consumed.
-- ==
-- error: Would consume `xs`, which is not consumable

def main (n: i64) (xs: *[]i32) : i32 =
  loop acc = 0 for i < n do
    let ys = xs with [i] = 1
    in acc + ys[i]
