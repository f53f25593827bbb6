-- A size parameter is bound from the shapes of the arguments, so one that
-- only the return type uses has no value: both implementations reject the
-- definition, as Futhark does.
-- ==
-- error: size parameter

def zeros [n] (x: i32) : [n]i32 = replicate n x

def main (x: i32) : [3]i32 = zeros x
