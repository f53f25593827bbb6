-- u32 subtraction wraps.
-- ==
-- input { 0u32 } output { 4294967295u32 }
def main (x: u32) = x - 1
