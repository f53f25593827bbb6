-- Loops and branches inside map lambdas over many elements, with a
-- different trip count per element: the CPU backend runs such lambdas on
-- blocks of elements at once (a while loop keeps only the elements still
-- iterating; a for loop's bound is shared), so sizes cross its block size
-- (1024) and parallel threshold (4096).
-- ==
-- entry: collatz
-- input { 10i64 }
-- output { [0i32, 1i32, 7i32, 2i32, 5i32, 8i32, 16i32, 3i32, 19i32, 6i32] }
-- input { 0i64 }
-- output { empty([0]i32) }
-- input { 5000i64 }
-- auto output

-- Steps of the Collatz iteration from i + 1 down to 1.
entry collatz (n: i64) : []i32 =
  map (\i ->
         let (_, steps) =
           loop (x, steps) = (i + 1, 0i32) while x != 1 do
             ((if x & 1 == 0 then x >> 1 else 3 * x + 1), steps + 1)
         in steps)
      (iota n)

-- ==
-- entry: alternating
-- input { 4i64 3i32 }
-- output { [0.0f64, 0.203125f64, 0.375f64, 0.609375f64] }
-- input { 3000i64 7i32 }
-- auto output
-- input { 1500i64 0i32 }
-- auto output

-- x - x^2 + x^3 - ... (k terms) for x = i / 4 (exact in binary), with a branch on the
-- loop index inside a for loop.
entry alternating (n: i64) (k: i32) : []f64 =
  map (\i ->
         let x = f64.i64 i / 4f64
         in loop acc = 0f64 for j < k do
              if j & 1 == 0 then acc + x ** f64.i32 (j + 1) else acc - x ** f64.i32 (j + 1))
      (iota n)

-- ==
-- entry: nested
-- input { 6i64 }
-- output { [0i64, 4i64, 8i64, 9i64, 12i64, 13i64] }
-- input { 4500i64 }
-- auto output

-- A while loop inside a for loop, reading the for loop's parameter and
-- index and the element.
entry nested (n: i64) : []i64 =
  map (\i ->
         loop acc = i for j < 3i64 do
           let (_, bits) = loop (x, c) = (acc + j, 0i64) while x > 0 do (x >> 1, c + 1)
           in acc + bits - j)
      (iota n)

-- ==
-- entry: some_start_done
-- input { 14i64 }
-- output { [12i64, 10i64, 11i64, 12i64, 10i64, 11i64, 12i64, 10i64, 11i64, 12i64, 10i64, 11i64, 12i64, 13i64] }
-- input { 9000i64 }
-- auto output

-- Elements at or above 10 never enter the loop.
entry some_start_done (n: i64) : []i64 =
  map (\i -> loop x = i while x < 10 do x + 3) (iota n)

-- ==
-- entry: gather_in_loop
-- input { [1i64, 2i64, 3i64] 3i64 }
-- output { [3i64, 6i64, 5i64] }
-- input { [1i64, 2i64, 3i64] 6000i64 }
-- error: Index \[3\] out of bounds for array of shape \[3\]

-- Element 3 is the first to index out of bounds (xs[3] when j = 1); later
-- elements fail too, some at an earlier iteration.
entry gather_in_loop [m] (xs: [m]i64) (n: i64) : []i64 =
  map (\i -> loop acc = 0i64 for j < 3i64 do acc + xs[(i * j) % 4]) (iota n)

-- ==
-- entry: divide
-- input { 3i64 }
-- output { [-20i64, -25i64, -34i64] }
-- input { 6000i64 }
-- error: division by zero

-- Futhark's `/` rounds towards negative infinity; element 5 divides by zero.
entry divide (n: i64) : []i64 =
  map (\i -> 100 / (i - 5)) (iota n)

-- ==
-- entry: triangle
-- input { 5i64 }
-- output { [0i64, 0i64, 1i64, 3i64, 6i64] }
-- input { 1100i64 }
-- auto output

-- A for loop whose bound differs per element: 0 + 1 + ... + (i - 1).
entry triangle (n: i64) : []i64 =
  map (\i -> loop acc = 0i64 for k < i do acc + k) (iota n)

-- ==
-- entry: ragged_rows
-- input { [0i64, 2i64, 2i64, 5i64] [1f32, 2f32, 3f32, 4f32, 5f32] }
-- output { [3f32, 0f32, 12f32] }
-- input { [0i64, 2i64, 2i64, 6i64] [1f32, 2f32, 3f32, 4f32, 5f32] }
-- error: Index \[5\] out of bounds for array of shape \[5\]

-- Row sums of a ragged array given by offsets (a per-element loop bound
-- and gathers); the last row of the second case reads past the values.
entry ragged_rows [m] [k] (offsets: [m]i64) (values: [k]f32) : []f32 =
  map (\r -> loop acc = 0f32 for j < offsets[r + 1] - offsets[r] do acc + values[offsets[r] + j])
      (iota (m - 1))

-- ==
-- entry: floor_by_constant
-- input { 4i64 }
-- output { [197i64, -2i64, 98i64, 198i64] }
-- input { 3000i64 }
-- auto output

-- `/` and `%` by a positive constant round towards negative infinity.
entry floor_by_constant (n: i64) : []i64 =
  map (\i -> (i - 7) / 3 + (i - 7) % 3 * 100) (iota n)

-- ==
-- entry: guarded_gather
-- input { [10i32, 20i32, 30i32] 3i64 }
-- output { [0i32, 10i32, 20i32] }
-- input { [10i32, 20i32, 30i32] 5i64 }
-- error: Index \[3\] out of bounds for array of shape \[3\]

-- The else branch reads xs[i - 1], out of bounds for element 0, which does
-- not take it; element 4 takes it with an index out of bounds.
entry guarded_gather [k] (xs: [k]i32) (n: i64) : []i32 =
  map (\i -> if i == 0 then 0 else xs[i - 1]) (iota n)

-- ==
-- entry: neighbours
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[6i32, 8i32, 7i32], [6i32, 8i32, 7i32]] }

-- Gathers from a two-dimensional free array, with wrap-around indices.
def neighbours_of [n][m] (b: [n][m]i32) : [n][m]i32 =
  map (\i -> map (\j -> b[i, (j + 1) % m] + b[(i + n - 1) % n, j]) (iota m)) (iota n)

entry neighbours [n][m] (b: [n][m]i32) : [n][m]i32 = neighbours_of b

-- ==
-- entry: neighbours_generated
-- input { 40i64 1100i64 }
-- auto output

entry neighbours_generated (n: i64) (m: i64) : [n][m]i32 =
  neighbours_of (map (\i -> map (\j -> i32.i64 ((i * 7 + j * 3) % 11)) (iota m)) (iota n))
