-- The numeric prelude's intrinsics are bound only while the prelude is
-- elaborated: a program cannot name one.
-- ==
-- error: unknown name `?__prim_sqrt
module m = { def root (x: f32) : f32 = __prim_sqrt x }
def main (x: f32) : f32 = m.root x
