-- A unique result may not share the storage of a non-unique parameter
-- (U-Def; code unique-return-aliased).
-- ==
-- error: Unique-typed return value of `f` is aliased to `xs`

def f (xs: []i32) : *[]i32 = xs

def main (xs: []i32) : []i32 = f xs
