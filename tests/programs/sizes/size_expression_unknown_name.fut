-- A size expression names only what is in scope.
-- ==
-- error: unknown name

def f [n] (xs: [n]i32) : [n + k]i32 = xs

entry main (xs: []i32) = f xs
