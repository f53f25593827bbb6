-- `scatter` takes indices and values of one size `[n]`: two parameters of
-- anonymous sizes have two distinct sizes, so this is a type error, as in
-- Futhark (SPEC_NOTES TFP18-22), though the arrays have one length at run
-- time. Found by a uniqueness test program of the review that the
-- optimising front end rejected and the reference accepted.
-- ==
-- error: sizes do not match

def main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 =
  scatter dest is vs
