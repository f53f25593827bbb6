-- A closure built in the body of a `let` that binds a size captures an
-- array of that size; the closure outlives the `let`, so its captured
-- array's size is existential there. The optimising compiler's
-- defunctionaliser kept the size in the closure's environment type ("the
-- size `m` is not in scope"; value oracle, seed 424242, program 18051).
-- ==
-- input { [1f32, -2f32, 3f32] [1u64, 2u64] } output { [4f32, 4f32] }
-- input { [-1f32] [7u64] } output { [0f32] }

entry main (xs: []f32) (ys: []u64) : []f32 =
  map (let [m] (zs: [m]f32) = filter (> 0) xs
       in \(p: u64) -> reduce (+) 0 zs + f32.u64 (p - p)) ys

-- ==
-- entry: in_record
-- input { [1i64, 2i64, 3i64] 2i64 } output { 5i64 }

entry in_record (xs: []i64) (k: i64) : i64 =
  let r = let [n] (big: [n]i64) = filter (>= k) xs
          in {count = n, sum = \(d: i64) -> reduce (+) d big}
  in r.sum 0
