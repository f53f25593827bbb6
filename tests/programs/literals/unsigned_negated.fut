-- Negating a literal of an unsigned type writes a negative number, which
-- no unsigned type holds: `-1u32` is a type error, as `- 1` at an
-- inferred `u32` is (SPEC_NOTES TFP18-32; `u32.highest` or `!0u32` say
-- the same value).
-- ==
-- error: does not fit in u32

def main (x: u32) : u32 = x & -1u32
