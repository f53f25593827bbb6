-- A negated literal is checked as the negative number it writes: `-128`
-- fits in `i8`, `-129` does not (SPEC_NOTES TFP18-32).
-- ==
-- error: does not fit in i8

def main (x: i8) : i8 = if x < 0 then -128 else -129
