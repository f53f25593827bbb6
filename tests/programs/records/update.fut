-- Functional record update.
-- ==
-- input { 5 } output { 5 10 }
type point = {x: i32, y: i32}
def main (v: i32) =
  let p: point = {x = v, y = 0}
  let q = p with y = 10
  in (q.x, q.y)
