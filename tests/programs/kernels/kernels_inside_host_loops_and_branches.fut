-- SOACs in host code below the top of a function body: in a `for` loop
-- (reading the loop's index and its array parameter), in a `while` loop and
-- in both branches of an `if`. The GPU backend once offered only the SOACs
-- of a function's own body to the device, so these ran on the host and were
-- counted nowhere; each of them is a kernel now, and an array a kernel
-- leaves on the device is read there by the next iteration's kernel
-- (tests/cli_gpu.rs counts them).
-- ==
-- input { [1f32, 2f32, 3f32] 3 }
-- output { [12f32, 20f32, 28f32] 3i64 24f32 }
-- input { [-1f32, 0f32] 0 }
-- output { [-1f32, 0f32] 0i64 -1f32 }

def main (xs: []f32) (rounds: i32) : ([]f32, i64, f32) =
  let ys = loop ys = xs for i < rounds do
             map (\y -> y * 2 + f32.i32 i) ys
  let (steps, _) = loop (steps, zs) = (0i64, ys) while f32.sum zs < 100 && steps < i64.i32 rounds do
                     (steps + 1, map (+ 1) zs)
  let total = if f32.sum ys > 0
              then f32.maximum (map (\y -> y - 4) ys)
              else f32.minimum (map (* 1) ys)
  in (ys, steps, total)
