-- A local function with a type parameter, used at one type (it is
-- generalised and elaborated once per use, SPEC_NOTES TFP18-17).
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] 3i64 }
def main (xs: []i32) =
  let rev 't (ys: []t) : []t = ys[::-1]
  in (rev xs, length (rev xs))
