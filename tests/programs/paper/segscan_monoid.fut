-- ICFP'18 Fig. 2's segmented scan without modules: the monoid is a record
-- holding a function (records may hold functions, TFP'18 §2.2) passed to a
-- generic `sgm_scan` (standing in for the parametric module `SgmScan`).
-- ==
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 4, 9] [1, 2, 6, 4, 20] }
-- input { [false, false, true, true] [5, -1, 2, 7] }
-- output { [5, 4, 2, 7] [5, -5, 2, 7] }
-- input { empty([0]bool) empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }

type^ monoid 't = {ne: t, op: t -> t -> t}

def plus : monoid i32 = {ne = 0, op = (+)}
def times : monoid i32 = {ne = 1, op = (*)}

def sgm_scan [n] 't (m: monoid t) (flags: [n]bool) (xs: [n]t) : [n]t =
  let sgm_op (f1: bool, x1: t) (f2: bool, x2: t) : (bool, t) =
    (f1 || f2, if f2 then x2 else m.op x1 x2)
  let (_, res) = unzip (scan sgm_op (false, m.ne) (zip flags xs))
  in res

def main [n] (flags: [n]bool) (xs: [n]i32) : ([n]i32, [n]i32) =
  (sgm_scan plus flags xs, sgm_scan times flags xs)
