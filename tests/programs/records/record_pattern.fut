-- Record patterns.
-- ==
-- input { 2 3 } output { 6 }
def area ({w, h}: {w: i32, h: i32}) = w * h
def main (a: i32) (b: i32) = area {w = a, h = b}
