-- u8 arithmetic wraps around, both ways.
-- ==
-- input { 250u8 10u8 } output { 4u8 240u8 }
-- input { 3u8 5u8 } output { 8u8 254u8 }
def main (a: u8) (b: u8) = (a + b, a - b)
