-- Two buffers swapped after an update of one of them: the updated buffer
-- gets back the other one's storage, which the loop only observes (its
-- initial value is not consumed), so the next iteration's update would
-- write into storage the loop does not own (loop-aliases; declaring both
-- buffers `*` is the fix, `double_buffers_declared_unique.fut`).
-- ==
-- error: Return value for consuming loop parameter `back` aliases `front`

def main (x: [3]i32) : ([3]i32, [3]i32) =
  loop (front, back) = (copy x, replicate 3 0i32) for i < 2 do
    let back' = back with [i] = front[i] + 1
    in (back', front)
