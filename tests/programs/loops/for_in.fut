-- loop ... for x in xs (the paper's form).
-- ==
-- input { [3, 1, 4, 1, 5] } output { 14 }
def main (xs: []i32) = loop s = 0 for x in xs do s + x
