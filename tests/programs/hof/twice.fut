-- A function returned from a function, applied twice (TFP'18 Fig. 1a).
-- ==
-- input { 5 1 } output { 11 }
-- input { -3 0 } output { -6 }
def twice (g: i32 -> i32) = \x -> g (g x)
def main (a: i32) (x: i32) = twice (\y -> y + a) x
