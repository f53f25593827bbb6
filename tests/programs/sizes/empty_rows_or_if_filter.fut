-- runestone-options: or-conditionals
-- Found by `runestone fuzz --oracle value --seed 77` (program 1293) once the
-- reference kept empty arrays' row shapes: a `filter` that keeps no row,
-- then a `map` with a function from an Or `if`; optimized took the rows'
-- size as 0 and failed `a dimension of a result is not 4` (SPEC_NOTES TFP18-6).
-- ==
-- input { empty([0]f64) 7u64 [-10i32] } output { empty([0][4]u16) }

type shape1 = #leaf | #node

type point2 = {x: i8, y: i32}

def f3 (x4 : i16) (x5 : [][1]u16) (x6 : i64) : shape1 =
  let (x7 : [4]f64) = replicate 4i64 2.75f64 in
  (#node) : shape1

entry main (x8 : []f64) (x9 : u64) (x10 : [1]i32) : [][4]u16 =
  let g11 (y12 : i32) : i32 = y12 in
  filter (\(p13 : (i32, [4]u16)) -> false) [(13i32, replicate 4i64 4u16), (9i32, replicate 4i64 15u16), (6i32, replicate 4i64 3u16)] |> map (if false then
    \(p14 : (i32, [4]u16)) -> replicate 4i64 5u16
  else
    \(p15 : (i32, [4]u16)) -> p15.1)
