-- `copy` keeps its argument's sizes: `map2` of arrays of 2 and 3 elements
-- is a type error through it too (verdict campaign seed 100023: generated
-- updates of a `copy` hid the sizes from the reference's T-ConstantSizes).
-- ==
-- error: sizes do not match

def main (x: i32) : []i32 = map2 (+) (copy [1, 2]) (replicate 3 x)
