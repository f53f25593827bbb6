-- `scatter` and `reduce_by_index` as kernels, one entry point per path of
-- the kernel library: scatter with `i64` and `i32` indices (negative and
-- past-the-end indices are ignored) and into an array of pairs;
-- histograms with native atomics (`+` on `i32`, `max` on `u32`), a
-- compare-and-swap loop (`+` on `f32`) and privatised partial histograms (a
-- user operator on `i64`, pairs). The GPU backend once left every
-- `scatter` and `reduce_by_index` on the host; tests/cli_gpu.rs counts
-- them as kernels, each destination updated on the device.
-- ==
-- entry: scatter_i64_indices
-- input { [0i64, 0i64, 0i64, 0i64] [3i64, -1i64, 1i64, 4i64, 0i64] [10i64, 20i64, 30i64, 40i64, 50i64] }
-- output { [50i64, 30i64, 0i64, 10i64] }
-- input { [7i64] [0i64] [8i64] }
-- output { [8i64] }

-- ==
-- entry: scatter_i32_indices_into_pairs
-- input { 5i64 [4i32, 2i32, 9i32, -3i32] [1.5f32, 2.5f32, 3.5f32, 4.5f32] }
-- output { [0f32, 0f32, 2.5f32, 0f32, 1.5f32] [false, false, true, false, true] }

-- ==
-- entry: histogram_sum_i32
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 7i64, -2i64, 3i64, 3i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] }
-- output { [1i32, 5i32, 0i32, 19i32] }

-- ==
-- entry: histogram_sum_f32
-- input { 3i64 [2i32, 0i32, 2i32, 5i32] [0.5f32, 1.25f32, 2.0f32, 8.0f32] }
-- output { [1.25f32, 0f32, 2.5f32] }

-- ==
-- entry: histogram_max_u32
-- input { [3u32, 3u32, 3u32] [0i64, 2i64, 2i64, 1i64, 0i64] [1u32, 9u32, 4u32, 2u32, 5u32] }
-- output { [5u32, 3u32, 9u32] }

-- ==
-- entry: histogram_user_operator_i64
-- input { 3i64 [1i64, 1i64, 2i64, 0i64, 1i64] [2i64, 3i64, 4i64, 5i64, 6i64] }
-- output { [5i64, 9i64, 4i64] }

-- ==
-- entry: histogram_of_pairs
-- input { 2i64 [0i64, 1i64, 0i64, 1i64, 1i64] [1f64, 2f64, 3f64, 4f64, 5f64] [10i32, 20i32, 30i32, 40i32, 50i32] }
-- output { [4f64, 11f64] [40i32, 110i32] }

entry scatter_i64_indices [n] (dest: *[]i64) (is: [n]i64) (vs: [n]i64) : []i64 =
  scatter dest is vs

entry scatter_i32_indices_into_pairs [k] (n: i64) (is: [k]i32) (vs: [k]f32) : ([]f32, []bool) =
  let written = map (\v -> (v, v < 3)) vs
  in unzip (scatter (replicate n (0f32, false)) (map i64.i32 is) written)

entry histogram_sum_i32 [n] (bins: i64) (is: [n]i64) (vs: [n]i32) : []i32 =
  reduce_by_index (replicate bins 0) (+) 0 is vs

entry histogram_sum_f32 [n] (bins: i64) (is: [n]i32) (vs: [n]f32) : []f32 =
  reduce_by_index (replicate bins 0) (+) 0 (map i64.i32 is) vs

entry histogram_max_u32 [n] (dest: *[]u32) (is: [n]i64) (vs: [n]u32) : []u32 =
  reduce_by_index dest u32.max 0 is vs

-- `a + b - 1` with neutral element 1: associative and commutative, and no
-- operator the kernels know.
entry histogram_user_operator_i64 [n] (bins: i64) (is: [n]i64) (vs: [n]i64) : []i64 =
  reduce_by_index (replicate bins 1) (\a b -> a + b - 1) 1 is vs

entry histogram_of_pairs [n] (bins: i64) (is: [n]i64) (xs: [n]f64) (ys: [n]i32) : ([]f64, []i32) =
  let add (a: f64, b: i32) (c: f64, d: i32) = (a + c, b + d)
  in unzip (reduce_by_index (replicate bins (0, 0)) add (0, 0) is (zip xs ys))
