-- Reads `xs[a + k]` and divisions by `d` at the top level of a `for k < t`
-- loop, `a`, `d` and `t` computed before it: the native kernels check the
-- whole range `a .. a + t - 1` and `d /= 0` once before the loop
-- (optimized/src/cpu/native/translate.rs, `precheck_loop`). The results
-- and the errors (message, location, which element fails first) must stay
-- those of the element-wise path and of the reference: a range that
-- leaves the array only at its last iteration, one that starts below 0, a
-- zero divisor, an error before the loop's reads, a loop that runs zero
-- times with a range and a divisor that would fail.
-- ==
-- entry: windows
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] [0i64, 1i64, 2i64] 3i64 1i64 }
-- output { [8i64, 11i64, 14i64] }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] [0i64, 2i64, 3i64] 3i64 1i64 }
-- error: native_loop_prechecks.fut:41:17: Index \[5\] out of bounds
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] [1i64, -1i64, 0i64] 2i64 1i64 }
-- error: native_loop_prechecks.fut:41:17: Index \[-1\] out of bounds
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] [0i64, 1i64] 3i64 0i64 }
-- error: native_loop_prechecks.fut:41:16: division by zero
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] [9i64, -7i64] 0i64 0i64 }
-- output { [0i64, 0i64] }

-- ==
-- entry: rows
-- input { [1i64, 2i64, 3i64, 4i64, 5i64, 6i64] [0i64, 2i64, 5i64, 6i64] 2i64 }
-- output { [1i64, 2i64, 0i64] }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64, 6i64] [0i64, 2i64, 7i64, 6i64] 2i64 }
-- error: native_loop_prechecks.fut:50:19: Index \[6\] out of bounds
-- input { [1i64, 2i64, 3i64, 4i64, 5i64, 6i64] [0i64, 2i64, 5i64, 6i64] 0i64 }
-- error: native_loop_prechecks.fut:50:19: division by zero
-- input { [1i64, 2i64] [0i64, 3i64, 2i64] 1i64 }
-- error: native_loop_prechecks.fut:50:19: Index \[2\] out of bounds
-- input { [1i64, 2i64] [0i64, 2i64, 2i64, 9i64] 1i64 }
-- error: native_loop_prechecks.fut:50:19: Index \[2\] out of bounds

-- The sum of `(xs[a + k] * k) / d` for `k < t`, for each start `a`; with
-- `t = 0` nothing is read.
entry windows (xs: []i64) (starts: []i64) (t: i64) (d: i64) : []i64 =
  map (\a ->
         loop s = 0 for k < t do
           s + (xs[a + k] * k) / d)
      starts

-- CSR-style rows: row i sums `xs[k + start] % d` over its range.
entry rows [m] (xs: []i64) (offsets: [m]i64) (d: i64) : []i64 =
  map (\i ->
         let start = offsets[i]
         let end = offsets[i + 1]
         in loop s = 0 for k < end - start do
              s + xs[k + start] % d)
      (iota (m - 1))
