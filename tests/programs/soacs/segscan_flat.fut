-- The segmented scan of ICFP'18 Fig. 2 without modules: a scan over
-- (flag, value) pairs.
-- ==
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 4, 9] }
-- input { [false, false, true, true] [5, -1, 2, 7] }
-- output { [5, 4, 2, 7] }
-- input { empty([0]bool) empty([0]i32) }
-- output { empty([0]i32) }
def main [n] (flag: [n]bool) (arr: [n]i32) : [n]i32 =
  let sgm_op (f1: bool, x1: i32) (f2: bool, x2: i32) : (bool, i32) =
    (f1 || f2, if f2 then x2 else x1 + x2)
  let (_, res) = unzip (scan sgm_op (false, 0) (zip flag arr))
  in res
