-- Sum (reduce) and prefix sum (inclusive scan) of wrapping 32-bit integers.
-- ==
-- entry: sum
-- input { [1, 2, 3, 4] } output { 10 }
-- input { [2147483647, 1] } output { -2147483648 }
-- random input { [1000]i32 }

-- ==
-- entry: prefix_sum
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
-- random input { [1000]i32 }

-- ==
-- entry: sum prefix_sum
-- tags { large }
-- notest random input { [10000000]i32 }

entry sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs

entry prefix_sum [n] (xs: [n]i32) : [n]i32 = scan (+) 0 xs
