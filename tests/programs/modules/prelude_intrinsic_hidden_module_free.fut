-- A module-free program cannot name a numeric prelude intrinsic either.
-- ==
-- error: unknown name `?__prim_to_i64
def main (x: i32) : i64 = __prim_to_i64 x
