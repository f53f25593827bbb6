-- A type abbreviation with a size parameter inside a module, used by the
-- module's own functions (SPEC_NOTES ICFP18-27).
-- ==
-- input { [1f64, 2f64, 3f64] }
-- output { 14f64 }

module linalg = {
  type vec [n] = [n]f64
  def dot [n] (a: vec [n]) (b: vec [n]) : f64 = f64.sum (map2 (*) a b)
}

def main [n] (xs: [n]f64) = linalg.dot xs xs
