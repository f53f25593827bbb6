-- Two buffers declared unique in the loop's pattern: the loop consumes
-- both initial values and owns both buffers, so the updated one may get
-- back the other's storage.
-- ==
-- input { [1, 2, 3] } output { [1, 1, 3] [2, 0, 0] }

def main (x: [3]i32) : ([3]i32, [3]i32) =
  loop (front: *[3]i32, back: *[3]i32) = (copy x, replicate 3 0i32) for i < 2 do
    let back' = back with [i] = front[i] + 1
    in (back', front)
