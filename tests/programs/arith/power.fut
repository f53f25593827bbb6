-- Integer and float powers.
-- ==
-- input { 3 4 } output { 81 }
def main (a: i32) (b: i32) = a ** b
