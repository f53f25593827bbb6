-- runestone-options: memory-limit=256M
-- `xs ++ xs` doubles the array each round: after 40 rounds it would hold
-- 2^40 elements. Each concatenation is admitted by the memory limit first,
-- so a round past 256 MiB ends the run with a located error (in the
-- prelude's `++`, which calls `concat`) instead of the process being killed.
-- Few rounds fit.
-- ==
-- input { 40 } error: Error at <prelude>/toplevel.fut:.*exceeds the memory limit
-- input { 4 } output { 16i64 }

entry main (rounds: i32) : i64 =
  let xs = loop xs = [1i64] for _i < rounds do xs ++ xs
  in length xs
