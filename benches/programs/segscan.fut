-- Segmented prefix sum through the module library of ICFP'18 Fig. 2
-- (examples/paper/segscan.fut): `SOACs(E).SgmScan(M)` over the monoid
-- `Plus(i32)`. A segment starts at each `true` flag.
-- ==
-- entry: segmented_sum
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 4, 9] }
-- random input { [1000]bool [1000]i32 }

-- ==
-- entry: segmented_sum
-- tags { large }
-- notest random input { [10000000]bool [10000000]i32 }

import "../../examples/paper/segscan"

entry segmented_sum [n] (flags: [n]bool) (xs: [n]i32) : [n]i32 =
  SegSum.bulkop flags xs
