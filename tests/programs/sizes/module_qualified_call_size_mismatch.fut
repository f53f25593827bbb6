-- A call through a qualified name of a module's function whose size
-- parameter `[n]` gets two different constant sizes is a compile-time
-- error, as in Futhark: `M.add`'s signature is recorded with the module
-- (SPEC_NOTES TFP18-19, Extension: TFP18 T-ConstantSizes on module
-- programs).
-- ==
-- error: sizes do not match

module M = {
  def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys
}

def main (x: i32) : []i32 = M.add [x, x, x] (replicate 2 x)
