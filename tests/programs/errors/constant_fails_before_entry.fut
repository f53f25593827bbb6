-- A failing constant fails before the entry point's own errors: every
-- declaration is evaluated in order first, even one used only after the
-- entry point's failing expression, or declared after the entry point.
-- ==
-- input { [1i32, 2i32] }
-- error: division by zero

def early : i32 = 1i32 / (0i32 * 2i32)

entry main (xs: []i32) : i32 = xs[5i64] + early

def late : i32 = [1i32][2i64]
