-- A size expression is an `i64`.
-- ==
-- error: i64

def f [n] (xs: [n]i32) (b: bool) : [n + b]i32 = xs

entry main (xs: []i32) = f xs true
