-- A program may define a value named like one of the numeric prelude's
-- intrinsics: it is the program's own value (the intrinsic stays hidden),
-- and static interpretation keeps it apart from the intrinsic that the
-- prelude's `f32.sqrt` uses.
-- ==
-- input { 4f32 } output { 5f32 2f32 }
-- input { 9f32 } output { 10f32 3f32 }
def __prim_sqrt (x: f32) : f32 = x + 1
module m = { def root (x: f32) : f32 = f32.sqrt x }
def main (x: f32) : (f32, f32) = (__prim_sqrt x, m.root x)
