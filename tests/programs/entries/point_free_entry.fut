-- Point-free entry points: an entry point whose body is a partial
-- application has a first-order type after all its arguments are taken
-- (`[n]u8 -> [n]u8 -> [n]u8`), and Futhark eta-expands it. Both
-- implementations must run it as a two-argument entry point.
-- ==
-- entry: add
-- input { [1u8, 2u8, 250u8] [3u8, 4u8, 10u8] } output { [4u8, 6u8, 4u8] }
-- input { empty([0]u8) empty([0]u8) } output { empty([0]u8) }

-- ==
-- entry: scale
-- input { 3i32 [1i32, 2i32] } output { [3i32, 6i32] }

-- ==
-- entry: curried
-- input { 5i64 7i64 } output { 12i64 }

-- ==
-- entry: total
-- input { [1f32, 2f32, 3.5f32] } output { 6.5f32 }

entry add = map2 (u8.+)

entry scale (k: i32) = map (\x -> x * k)

entry curried (x: i64) : i64 -> i64 = \y -> x + y

entry total = reduce (f32.+) 0
