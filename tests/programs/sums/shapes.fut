-- A sum type with several payloads.
-- ==
-- input { 2.0 } output { 12.0 4.0 }
type shape = #rect f64 f64 | #square f64
def area (s: shape) = match s
  case #rect w h -> w * h
  case #square a -> a * a
def main (x: f64) = (area (#rect x 6.0), area (#square x))
