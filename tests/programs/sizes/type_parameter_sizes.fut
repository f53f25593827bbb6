-- A type parameter instantiated at an array type keeps its sizes, and
-- one instantiated twice must get the same shape both times (here it
-- does), so the program is accepted and runs (SPEC_NOTES TFP18-19).
-- ==
-- input { 3i32 } output { [4i32, 4i32, 4i32] }
def first 'a (x: a) (y: a) : a = x

def main (x: i32) : [3]i32 =
  map2 (+) (first (replicate 3i64 x) [7i32, 8i32, 9i32]) (replicate 3i64 1i32)
