-- Partial application captures the first argument in a closure.
-- ==
-- input { [1, 2, 3] } output { [11, 12, 13] }
def add (x: i32) (y: i32) = x + y
def main (xs: []i32) = let f = add 10 in map f xs
