-- A gathering function of more than eight statements called from two entry
-- points (as benches/programs/spmv.fut's `spmv`): the optimising compiler
-- inlines it into both within its growth budget
-- (optimized/src/passes/inline.rs), and in `generated` the map that
-- computes the indices (`c % n`, which fails when `n = 0`) is then
-- recomputed at its read (index_fusion.rs), as are the offsets. Errors
-- stay the unfused program's: with `n = 0` the offsets' division fails
-- first (the one element of `iota (n + 1)`), before the remainder; the
-- gather's out-of-bounds read; the size check of the rows.
-- ==
-- entry: direct
-- input { [0i64, 2i64, 3i64] [1i64, 0i64, 1i64] [1f32, 2f32, 3f32] [10f32, 20f32] }
-- output { [40f32, 60f32] }
-- input { [0i64, 2i64, 3i64] [1i64, 0i64, 2i64] [1f32, 2f32, 3f32] [10f32, 20f32] }
-- error: inline_shared_gather_fused_producer.fut:35:31: Index \[2\] out of bounds

-- ==
-- entry: generated
-- input { [3i64, -4i64, 5i64] [1f32, 2f32, 3f32] [10f32, 20f32] }
-- output { [20f32, 80f32] }
-- input { [3i64, -4i64, 5i64] [1f32, 2f32, 3f32] empty([0]f32) }
-- error: inline_shared_gather_fused_producer.fut:43:28: division by zero
-- input { [3i64, -4i64, 5i64] [1f32, 2f32] [10f32, 20f32] }
-- error: Size mismatch
-- input { empty([0]i64) empty([0]f32) [10f32, 20f32] }
-- output { [0f32, 0f32] }

def gather_rows [n] [k] (offsets: []i64) (idx: [k]i64) (w: [k]f32) (x: [n]f32) : [n]f32 =
  map (\i ->
         let start = offsets[i]
         let end = offsets[i + 1]
         let count = end - start
         in loop acc = 0f32 for j < count do
              let at = start + j
              let v = w[at] * x[idx[at]]
              in acc + v)
      (iota n)

entry direct [k] [n] (offsets: []i64) (idx: [k]i64) (w: [k]f32) (x: [n]f32) : [n]f32 =
  gather_rows offsets idx w x

entry generated [k] [n] (raw: [k]i64) (w: [k]f32) (x: [n]f32) : [n]f32 =
  let offsets = map (\i -> i * k / n) (iota (n + 1))
  let idx = map (\c -> c % n) raw
  in gather_rows offsets idx w x
