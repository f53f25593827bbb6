-- A local `open` of a numeric module in an otherwise module-free program
-- (Futhark's `m.(e)`). The compiled backends run it; the reference does not
-- support it yet (neither its module-free front end nor the TFP'18 core
-- instance of its module calculus elaborates a local `open`): listed in
-- driver/tests/expected_failures/reference.txt. Found when the corpus
-- harness first ran examples/syntax/expressions.fut on the reference.
-- ==
-- input { 9f32 } output { 7f32 }
-- input { 0f32 } output { 1f32 }
def main (x: f32) : f32 = f32.(sqrt x * 2 + abs (-1))
