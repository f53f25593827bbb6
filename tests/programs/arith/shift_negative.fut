-- `>>` is arithmetic on signed integers, `>>>` logical.
-- ==
-- input { -8 } output { -2 1073741822 }
def main (a: i32) = (a >> 2, a >>> 2)
