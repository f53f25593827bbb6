-- Updating an element of an array of records.
-- ==
-- input { 5 } output { 5 1 }
def main (v: i32) =
  let xs = [{a = 1}, {a = 2}]
  let ys = xs with [1] = {a = v}
  in (ys[1].a, ys[0].a)
