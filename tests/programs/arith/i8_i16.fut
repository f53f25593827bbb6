-- Narrow signed integers wrap.
-- ==
-- input { 127i8 32767i16 } output { -128i8 -32768i16 }
def main (a: i8) (b: i16) = (a + 1, b + 1)
