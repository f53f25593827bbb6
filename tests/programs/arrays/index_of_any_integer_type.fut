-- Futhark indexes arrays with an index of any integer type, signed or
-- unsigned (`xs[i]` with `i: i32`, `u8`, ...), in reads and in-place
-- updates; an unsigned index is its value (`255u8` is 255, not -1).
-- The optimising checker required `i64` (found on a corpus of real Futhark
-- programs, issue 26).
-- ==
-- entry: pick
-- input { [10i32, 20i32, 30i32, 40i32] 1i32 2u8 3i16 0i8 }
-- output { [20i32, 30i32, 40i32, 10i32] }

-- ==
-- entry: pick_2d
-- input { [[1i32, 2i32], [3i32, 4i32]] 1u16 0i32 } output { 3i32 }

-- ==
-- entry: set
-- input { [10i32, 20i32, 30i32] 2u32 7i32 } output { [10i32, 20i32, 7i32] }

-- ==
-- entry: pick
-- input { [10i32, 20i32] -1i32 0u8 0i16 0i8 } error: -1
-- input { [10i32, 20i32] 0i32 255u8 0i16 0i8 } error: 255

entry pick (xs: []i32) (a: i32) (b: u8) (c: i16) (d: i8) =
  [xs[a], xs[b], xs[c], xs[d]]

entry pick_2d (xss: [][]i32) (i: u16) (j: i32) = xss[i, j]

entry set (xs: *[]i32) (i: u32) (v: i32) = xs with [i] = v
