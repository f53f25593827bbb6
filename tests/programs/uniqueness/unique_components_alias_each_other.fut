-- Two unique components of a result may not share storage (U-Def; code
-- fresh-return-aliased): a caller could update both.
-- ==
-- error: A fresh-declared component of the return value of `twice` is aliased to some other component

def twice (xs: *[]i32) : (*[]i32, *[]i32) = (xs, xs)

def main (xs: *[]i32) : ([]i32, []i32) = twice xs
