-- Float floor and ceil.
-- ==
-- input { 2.5f32 } output { 2.0f32 3.0f32 }
def main (x: f32) = (f32.floor x, f32.ceil x)
