-- Records may hold functions (TFP'18 §2.2), and a projection is applied.
-- ==
-- input { 4 } output { 5 16 }
def ops = {inc = \(x: i32) -> x + 1, sq = \(x: i32) -> x * x}
def main (x: i32) = (ops.inc x, ops.sq x)
