-- The two unique components of a result may not be one local array: the
-- caller could update one and see the change in the other
-- (fresh-return-aliased; found by review: both implementations forgot a
-- local's storage when its `let` ended and accepted the program).
-- ==
-- error: A fresh-declared component of the return value of `twice` is aliased to some other component

def twice (n: i64) : (*[]i32, *[]i32) =
  let a = replicate n 0i32
  in (a, a)

def main (n: i64) : ([]i32, []i32) =
  let (x, y) = twice n
  in (x with [0] = 1, y)
