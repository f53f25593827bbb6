-- runestone-options: memory-limit=256M
-- The program's options set the memory limit to 256 MiB. Each way a program
-- builds an array from its values is refused past it, at the place that
-- builds it: `iota`, a range, `replicate` of an array, and `concat`
-- doubling an array in a loop (each step checked, so the step past the
-- limit is refused, not the process killed). Requests within the limit run.
-- ==
-- entry: count_iota
-- input { 100000000i64 } error: arrays_past_a_set_limit.fut:21:.*memory limit of 268435456 bytes
-- input { 1000i64 } output { 999i64 }
-- ==
-- entry: count_range
-- input { 100000000i64 } error: arrays_past_a_set_limit.fut:24:.*memory limit
-- input { 1000i64 } output { 999i64 }
-- ==
-- entry: replicate_rows
-- input { 100000i64 } error: arrays_past_a_set_limit.fut:28:.*memory limit
-- input { 10i64 } output { 10i64 }

entry count_iota (n: i64) : i64 =
  let xs = iota n in xs[n - 1]

entry count_range (n: i64) : i64 =
  let xs = 0..<n in xs[n - 1]

entry replicate_rows (n: i64) : i64 =
  let row = iota 1000
  let rows = replicate n row
  in rows[n - 1, 1] * n
