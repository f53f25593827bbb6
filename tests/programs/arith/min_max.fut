-- min, max and abs through the primitive-type functions.
-- ==
-- input { -3 7 } output { -3 7 3 }
def main (a: i32) (b: i32) = (i32.min a b, i32.max a b, i32.abs a)
