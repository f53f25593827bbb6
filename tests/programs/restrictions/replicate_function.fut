-- replicate may not build an array of functions.
-- ==
-- error: arrays of functions
def main (x: i32) = let fs = replicate 2 (\(y: i32) -> y) in x
