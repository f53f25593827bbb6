-- An entry point may not return a function.
-- ==
-- error: T-Entry
def main (x: i32) = \(y: i32) -> x + y
