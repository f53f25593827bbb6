-- `zip4` takes four arrays of one size `[n]`; two parameters of anonymous
-- sizes have two distinct sizes (SPEC_NOTES TFP18-22), so this is a type
-- error, as it is for `zip` and `zip3`. Found by a real program: the
-- reference's size judgment ruled `zip` and `zip3` only, and accepted it.
-- ==
-- error: sizes do not match

def main (a: []i32) (b: []i32) = zip4 a a a b
