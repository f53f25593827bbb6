-- A small polymorphic function applied to a negative constant and an entry
-- point's size parameter: the inliner substitutes `-9` for `x` everywhere
-- but in the body's result (a dimension position, where a negative constant
-- is ill-typed), so `x` must stay bound there (optimized reported "the IR
-- after pass `inline` is ill-typed: x is not in scope"; value oracle seed
-- 5150, programs 15753 and 19270, shrunk by hand).
-- ==
-- input { [1.0f32, 2.0f32] } output { -9i64 }
-- input { empty([0]f32) } output { -9i64 }

def first 'a (x: a) (y: a) : a =
  let unused = false in
  x

entry main [n] (xs: [n]f32) : i64 =
  first (-9i64) n
