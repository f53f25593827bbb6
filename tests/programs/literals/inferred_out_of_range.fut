-- An unsuffixed literal takes the type inference gives it, and must fit
-- in that type: here `x` makes `300` a `u8` (SPEC_NOTES TFP18-32).
-- ==
-- error: does not fit in u8

def main (x: u8) : u8 = x * 300
