-- A point-free entry point whose function comes from a module (the
-- reference's module path, the TFP'18 core instance of ICFP'18, builds the
-- entry point after static interpretation) and one made point-free by a
-- functor application.
-- ==
-- entry: add
-- input { [1i32, -2i32] [3i32, 4i32] } output { [4i32, 2i32] }

-- ==
-- entry: twice_sum
-- input { [1i64, 2i64, 3i64] } output { 12i64 }

module vectors = {
  def add = map2 (i32.+)
}

module type summing = { val sum : []i64 -> i64 }

module doubled (S: summing) = {
  def sum (xs: []i64) = 2 * S.sum xs
}

module plain = { def sum = reduce (i64.+) 0 }
module twice = doubled plain

entry add = vectors.add

entry twice_sum = twice.sum
