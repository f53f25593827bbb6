-- The prelude's construction, iteration and reshaping functions (Futhark's
-- `tabulate*`, `iterate*`, `null`, `manifest`, `opaque`, `flatten_3d/4d`,
-- `unflatten_3d/4d`, `sized`), missing before (issue 26), written from the
-- prelude's documentation.
-- ==
-- entry: tabulations
-- input { 3i64 }
-- output { [0i64, 2i64, 4i64]
--          [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64], [20i64, 21i64, 22i64]]
--          [[[0i64, 1i64], [2i64, 3i64]], [[4i64, 5i64], [6i64, 7i64]]] }
-- input { 0i64 }
-- output { empty([0]i64) empty([0][3]i64)
--          [[[0i64, 1i64], [2i64, 3i64]], [[4i64, 5i64], [6i64, 7i64]]] }

-- ==
-- entry: iterations
-- input { 3i32 } output { 8i32 243i32 81i32 }
-- input { 0i32 } output { 1i32 243i32 81i32 }

-- ==
-- entry: predicates
-- input { empty([0]i32) } output { true 0i64 }
-- input { [5i32, 6i32] } output { false 2i64 }

-- ==
-- entry: reshapes
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] }
-- output { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32]
--          [[[0i64, 1i64], [2i64, 3i64]], [[4i64, 5i64], [6i64, 7i64]]]
--          [1i32, 2i32]
--          [[[[1i32, 2i32]]]] }

-- ==
-- entry: resized
-- input { 2i64 [1i32, 2i32] } output { [1i32, 2i32] }
-- input { 3i64 [1i32, 2i32] } error: Size mismatch

entry tabulations (n: i64) =
  ( tabulate n (\i -> i * 2)
  , tabulate_2d n 3 (\i j -> i * 10 + j)
  , tabulate_3d 2 2 2 (\i j k -> i * 4 + j * 2 + k)
  )

entry iterations (n: i32) =
  ( iterate n (\x -> x * 2) 1i32
  , iterate_until (\x -> x > 100) (\x -> x * 3) 1i32
  , iterate_while (\x -> x < 50) (\x -> x * 3) 1i32
  )

entry predicates (xs: []i32) = (null xs, length (manifest (opaque xs)))

entry reshapes (xsss: [][][]i32) =
  ( flatten_3d xsss
  , unflatten_3d 2 2 2 (iota 8)
  , flatten_4d [[[[1i32]], [[2i32]]]]
  , unflatten_4d 1 1 1 2 [1i32, 2i32]
  )

entry resized (n: i64) (xs: []i32) = sized n xs
