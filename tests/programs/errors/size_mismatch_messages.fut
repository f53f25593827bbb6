-- A failed size check names the dimension, what was checked and the size
-- it should have had, at the checked parameter or expression, as the
-- reference words it (SPEC_NOTES TFP18-12): entry arguments of different
-- sizes for one size parameter, coercions (`:>`) to a named size, to a
-- constant, through a type abbreviation, in the second dimension and in a
-- tuple. The optimising compiler once said only `Size mismatch: value
-- cannot match shape of type.` or `a dimension of a parameter`, located at
-- the function (found by hand while checking the value oracle's coverage
-- of run-time errors).
-- ==
-- entry: same_size
-- input { [1, 2] [3, 4] } output { [4, 6] }
-- input { [1, 2] [3, 4, 5] } error: Error at .*size_mismatch_messages\.fut:39:35.*Size mismatch: dimension 0 of `ys` does not have the size `n` of its type\.

-- ==
-- entry: to_named
-- input { 2i64 [1, 2] } output { [1, 2] }
-- input { 3i64 [1, 2] } error: Error at .*size_mismatch_messages\.fut:43:3.*Size mismatch: dimension 0 of the value does not have the size `n` of its type\.

-- ==
-- entry: to_constant
-- input { [1, 2, 3] } output { [1, 2, 3] }
-- input { [1, 2] } error: Size mismatch: dimension 0 of the value is not 3\.

-- ==
-- entry: through_abbreviation
-- input { 2i64 [1, 2] } output { [1, 2] }
-- input { 2i64 [1, 2, 3] } error: Size mismatch: dimension 0 of the value does not have the size `m` of its type\.

-- ==
-- entry: inner_dimension
-- input { 2i64 [[1, 2], [3, 4]] } output { [[1, 2], [3, 4]] }
-- input { 3i64 [[1, 2], [3, 4]] } error: Size mismatch: dimension 1 of the value does not have the size `k` of its type\.

-- ==
-- entry: in_tuple
-- input { [1, 2] [true, false, true] } error: Size mismatch: dimension 0 of the value is not 3\.

entry same_size [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 =
  map2 (+) xs ys

entry to_named (n: i64) (xs: []i32) : [n]i32 =
  xs :> [n]i32

entry to_constant (xs: []i32) : [3]i32 =
  xs :> [3]i32

type vec [k] = [k]i32

entry through_abbreviation (m: i64) (xs: []i32) : [m]i32 =
  xs :> vec [m]

entry inner_dimension [r] (k: i64) (xss: [r][]i32) : [r][k]i32 =
  xss :> [r][k]i32

entry in_tuple (xs: []i32) (bs: []bool) : ([3]i32, [3]bool) =
  (xs, bs) :> ([3]i32, [3]bool)
