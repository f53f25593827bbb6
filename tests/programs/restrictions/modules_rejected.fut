-- The module-free front end rejects module declarations with a located
-- diagnostic.
-- ==
-- error: needs the module calculus
module m = { def x = 1i32 }
def main = m.x
