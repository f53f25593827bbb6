-- A `*` under an existential size quantifier still declares the result
-- unique: returning a non-unique parameter is an error (found by review:
-- the optimising front end read the `*` inside `?[m].`, the reference did
-- not and accepted the program).
-- ==
-- error: Unique-typed return value of `same` is aliased to `xs`

def same (xs: []i32) : ?[m].*[m]i32 = xs

def main (xs: []i32) : []i32 = same xs
