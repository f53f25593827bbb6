-- A float literal whose value is beyond its type's largest finite value
-- is out of range, as an integer literal can be: `1e39f32` would round to
-- infinity (SPEC_NOTES TFP18-32). Tiny literals round to zero, which is
-- not an error.
-- ==
-- error: does not fit in f32

def main (x: f32) : f32 = x + 1e39f32
