-- `import` resolved relative to the importing file (SPEC_NOTES ICFP18-17).
-- ==
-- input { 2 3 } output { 5 }
import "lib/adder"
def main (x: i32) (y: i32) : i32 = adder.add x y
