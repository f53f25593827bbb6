-- A local function with a type parameter, used at one type (local
-- functions are monomorphic in the reference).
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] 3i64 }
def main (xs: []i32) =
  let rev 't (ys: []t) : []t = ys[::-1]
  in (rev xs, length (rev xs))
