-- After `module i32 = …` shadows the prelude's, `i32.max` is unknown.
-- ==
-- error: i32.max
module i32 = { def double (x: i32) : i32 = x + x }
def main (x: i32) : i32 = i32.max x 1
