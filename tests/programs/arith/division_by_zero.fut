-- Integer division by zero is a run-time error.
-- ==
-- input { 1 0 } error: division by zero
-- input { 6 3 } output { 2 }
def main (a: i32) (b: i32) = a / b
