-- `map5` maps over five arrays of one size `[n]` (SPEC_NOTES TFP18-22);
-- the reference accepted this.
-- ==
-- error: sizes do not match

def main (a: []i32) (b: []i32) = map5 (\v w x y z -> v * w + x * y + z) b a a a a
