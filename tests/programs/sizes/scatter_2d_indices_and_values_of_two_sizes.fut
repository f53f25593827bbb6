-- The prelude's `scatter_2d 't [n][m][k] (dest: *[n][m]t) (is: [k](i64, i64))
-- (vs: [k]t)`: `zip is is` has the size of `is`, and `vs` another
-- anonymous size (SPEC_NOTES TFP18-22). The reference accepted this.
-- ==
-- error: sizes do not match

def main (dest: *[][]f32) (is: []i64) (vs: []f32) = scatter_2d dest (zip is is) vs
