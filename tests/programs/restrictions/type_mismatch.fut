-- A type error is a compile-time error.
-- ==
-- error: expected `?i32`?, found `?bool
def main (x: i32) = x + true
