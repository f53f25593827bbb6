-- A type error is a compile-time error.
-- ==
-- error: type mismatch
def main (x: i32) = x + true
