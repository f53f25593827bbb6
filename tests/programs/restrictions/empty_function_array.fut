-- Even an empty array may not have functions as elements.
-- ==
-- error: T-Array
def main (x: i32) = let fs: [](i32 -> i32) = [] in x
