-- Aliases are tracked per tuple component (section 4): only the second
-- component of the loop's tuple is consumed, so the first may alias a
-- non-unique parameter.
-- ==
-- input { [1, 2] [5, 6, 7] } output { 3 [0, 0, 7] }

def main (ys: []i32) (xs: *[]i32) : (i32, []i32) =
  let (s, zs) =
    loop (a, b) = (ys, xs) for i < 2 do
      (a, b with [i] = 0)
  in (s[0] + s[1], zs)
