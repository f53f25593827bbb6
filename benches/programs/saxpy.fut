-- SAXPY: a * x + y, elementwise (BLAS level 1).
-- ==
-- input { 2f32 [1f32, 2f32, 3f32] [0.5f32, 0f32, -1f32] }
-- output { [2.5f32, 4f32, 5f32] }
-- random input { f32 [1000]f32 [1000]f32 }

-- ==
-- tags { large }
-- notest random input { f32 [10000000]f32 [10000000]f32 }

def main [n] (a: f32) (xs: [n]f32) (ys: [n]f32) : [n]f32 =
  map2 (\x y -> a * x + y) xs ys
