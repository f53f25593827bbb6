-- A structure whose functions use SOACs, the prelude and numeric modules.
-- ==
-- input { [1, 2, 3] } output { 12 }
-- input { empty([0]i32) } output { 0 }
module sums = {
  def double (xs: []i32) : []i32 = map (\x -> x * 2) xs
  def total (xs: []i32) : i32 = reduce (i32.+) 0 xs
}
def main (xs: []i32) : i32 = sums.total (sums.double xs)
