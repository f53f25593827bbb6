-- Sparse matrix-vector product, compressed sparse row (CSR) format. The
-- benchmark generates the matrix from random data: an n x n matrix with nnz
-- nonzeros, row i holding entries i*nnz/n .. (i+1)*nnz/n - 1 of `vals`, with
-- columns `cols_raw[k] % n` (Futhark's `%` rounds down: in 0..n-1).
-- ==
-- entry: spmv_csr
-- input { [0i64, 2i64, 3i64, 3i64] [2i64, 0i64, 1i64] [1f32, 2f32, 3f32] [10f32, 20f32, 30f32] }
-- output { [50f32, 60f32, 0f32] }

-- ==
-- entry: spmv_generated
-- input { [5i64, -1i64, 3i64, 4i64] [1f32, 2f32, 3f32, 4f32] [1f32, 10f32, 100f32] }
-- output { [100f32, 200f32, 43f32] }
-- random input { [4000]i64 [4000]f32 [1000]f32 }

-- ==
-- entry: spmv_generated
-- tags { large }
-- notest random input { [10000000]i64 [10000000]f32 [1000000]f32 }

-- y = A x for A in CSR form: row i's nonzeros are vals[offsets[i]:offsets[i+1]]
-- at columns cols[offsets[i]:offsets[i+1]].
def spmv [n] [nnz] (offsets: []i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: [n]f32) : [n]f32 =
  map (\i ->
         let start = offsets[i]
         let end = offsets[i + 1]
         in loop acc = 0f32 for k < end - start do
              acc + vals[start + k] * x[cols[start + k]])
      (iota n)

-- A three-row example: the offsets are given.
entry spmv_csr [nnz] [n] (offsets: []i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: [n]f32) : [n]f32 =
  spmv offsets cols vals x

-- The benchmark's matrix, built from random data as described above.
entry spmv_generated [nnz] [n] (cols_raw: [nnz]i64) (vals: [nnz]f32) (x: [n]f32) : [n]f32 =
  let offsets = map (\i -> i * nnz / n) (iota (n + 1))
  let cols = map (\c -> c % n) cols_raw
  in spmv offsets cols vals x
