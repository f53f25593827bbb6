-- An unsuffixed decimal literal inferred as `f32` is checked at `f32`.
-- ==
-- error: does not fit in f32

def main (x: f32) : f32 = x * -4e38
