-- Top-level constants of sum, array and record type.
-- ==
-- input { 0i64 } output { 5 1 true }
type opt = #none | #some i32
def default : opt = #some 5
def table = [1, 2, 3]
def config = {flag = true, scale = 2}
def main (i: i64) =
  (match default case #some v -> v case #none -> 0, table[i], config.flag)
