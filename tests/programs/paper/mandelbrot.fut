-- Escape-time iteration counts, as in TFP'18 §6.1's functional images: an
-- image is a function from points to values, sampled with map.
-- ==
-- input { [2.0f32, 0.0f32, 1.0f32, -1.0f32] [2.0f32, 0.0f32, 0.0f32, 0.0f32] 10 }
-- output { [1, 10, 3, 10] }
type point = (f32, f32)
type^ img 'a = point -> a

def escape (limit: i32) : img i32 = \(cx, cy) ->
  let (_, _, i) = loop (x, y, i) = (0f32, 0f32, 0) while i < limit && x * x + y * y <= 4f32 do
    (x * x - y * y + cx, 2f32 * x * y + cy, i + 1)
  in i

def sample 'a [n] (f: img a) (xs: [n]f32) (ys: [n]f32) : [n]a = map2 (\x y -> f (x, y)) xs ys

def main [n] (xs: [n]f32) (ys: [n]f32) (limit: i32) = sample (escape limit) xs ys
