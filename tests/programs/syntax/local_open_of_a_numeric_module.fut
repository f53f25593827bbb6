-- A local `open` of a numeric module in an otherwise module-free program
-- (Futhark's `m.(e)`). Found when the corpus harness first ran
-- examples/syntax/expressions.fut on the reference, which elaborated no
-- local open until issue 26 (SPEC_NOTES ICFP18-26: the module-free front
-- end sends the program to the module calculus, whose core instance binds
-- the numeric module's names for `e`).
-- ==
-- input { 9f32 } output { 7f32 }
-- input { 0f32 } output { 1f32 }
def main (x: f32) : f32 = f32.(sqrt x * 2 + abs (-1))
