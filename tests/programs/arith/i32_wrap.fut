-- i32 arithmetic wraps around.
-- ==
-- input { 2147483647 } output { -2147483648 }
def main (x: i32) = x + 1
