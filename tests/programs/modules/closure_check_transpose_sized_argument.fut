-- Found by `runestone fuzz --oracle value --seed 100000` (program 31510,
-- depth 5, 4 declarations), shrunk by hand. The reference checks that a
-- sealed module's function values have their types (TFP'18 Fig. 7, V-Clos)
-- by applying each to one related argument of its size-agnostic core type:
-- an empty array for `t = [3]shape`. `transpose` over the rows
-- `[[c, c, c], [], []]` then indexed the empty rows and the reference
-- panicked; it now reports the application as stuck (no result, which the
-- check allows), as for any other ill-sized probe.
-- ==
-- input { 1i32 } output { 1i32 }
-- input { -7i32 } output { -7i32 }

type shape = #circle i32 f32 | #square

module type has_op = {
  type t
  val op : t -> t
}

module sized : has_op = {
  type t = [3]shape
  def op (x : t) : t =
    (transpose [replicate 3i64 ((#circle 13i32 7.0f32) : shape), x, x])[0i64]
}

entry main (x : i32) : i32 = x
