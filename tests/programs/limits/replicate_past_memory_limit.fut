-- An array past the memory limit ends the run with a located error on every
-- backend, before any memory is taken (SPEC_NOTES LIMITS-1). The limit is
-- half of the machine's memory unless `--memory-limit` or the program's
-- options set it; 10^15 elements of 4 bytes exceed it on any machine.
-- ==
-- input { 1000000000000000i64 }
-- error: replicate_past_memory_limit.fut:11:.*exceeds the memory limit
-- input { 1000i64 } output { 2i32 }

entry main (n: i64) : i32 =
  let xs = replicate n 1i32
  in xs[0] + xs[n - 1]
