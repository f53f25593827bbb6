-- Converting f64 to f32 rounds to nearest.
-- ==
-- input { 0.1 } output { 0.1f32 }
def main (x: f64) = f32.f64 x
