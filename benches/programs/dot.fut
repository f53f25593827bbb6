-- Dot product: a map fused into a reduction.
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { 32f32 }
-- random input { [1000]f32 [1000]f32 }

-- ==
-- tags { large }
-- notest random input { [10000000]f32 [10000000]f32 }

def main [n] (xs: [n]f32) (ys: [n]f32) : f32 =
  reduce (+) 0f32 (map2 (*) xs ys)
