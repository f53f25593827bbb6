-- `map4` maps over four arrays of one size `[n]`: `b`'s anonymous size is
-- not `a`'s (SPEC_NOTES TFP18-22). The reference ruled `map2` and `map3`
-- only, and accepted this.
-- ==
-- error: sizes do not match

def main (a: []i32) (b: []i32) = map4 (\w x y z -> w + x + y + z) a a a b
