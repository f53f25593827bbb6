-- `zip5` takes five arrays of one size `[n]` (SPEC_NOTES TFP18-22): the
-- reference accepted this, since its size judgment ruled `zip` and `zip3`
-- only.
-- ==
-- error: sizes do not match

def main (a: []i32) (b: []f32) = unzip5 (zip5 a a a a b)
