-- An inner reduction over an `iota` whose length is far past what any
-- element could allocate (review of the GPU's sequential inner
-- reductions): the host refuses the `iota` past the memory limit with a
-- located error, where a kernel, which never stores the `iota`, would loop
-- for 10^12 iterations. The kernel must hand such an `iota` back to the
-- host (and run the short one itself).
-- ==
-- input { [3i64, 4i64] } output { [3i64, 6i64] }
-- input { [3i64, 1000000000000i64] } error: memory limit

entry main (xs: []i64) : []i64 =
  map (\x -> reduce (+) 0 (iota x)) xs
