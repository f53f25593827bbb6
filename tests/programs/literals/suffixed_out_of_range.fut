-- A suffixed integer literal must fit in its type: `256u8` is a type
-- error (SPEC_NOTES TFP18-32), on both implementations, located at the
-- literal.
-- ==
-- error: does not fit in u8

def main (x: u8) : u8 = x + 256u8
