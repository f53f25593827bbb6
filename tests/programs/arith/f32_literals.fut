-- f32 literals and sqrt.
-- ==
-- input { 16.0f32 } output { 4.0f32 6.5f32 }
def main (x: f32) = (f32.sqrt x, x / 2.0 - 1.5)
