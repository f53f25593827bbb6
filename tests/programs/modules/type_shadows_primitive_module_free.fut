-- A type abbreviation named like a primitive type shadows it in a
-- module-free program too (`f32` is `f64` here).
-- ==
-- input { 1.5f64 } output { 3.0f64 }
type f32 = f64
def main (x: f32) : f32 = x * 2.0f64
