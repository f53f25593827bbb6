-- An invalid range fails with its values, as the reference (and Futhark)
-- report it: the start, the second element (the start plus the step) and
-- the end, in the range's element type (the second element wraps around
-- as the type's arithmetic does); `iota` and `replicate` name their
-- count. Every range form of the surface language, valid and invalid,
-- including the direction rules of `..<` (a positive step) and `..>` (a
-- negative step). Optimized once said only `Range is invalid.` (value
-- oracle, seed 5150 program 875 and others: fuzz/findings/value_campaigns.md)
-- and accepted `0..1..>5` and `5..4..<0`.
-- ==
-- entry: inclusive
-- input { 3i64 1i64 } error: Range 3i64\.\.4i64\.\.\.1i64 is invalid\.
-- input { 3i64 3i64 } output { [3i64] }
-- input { 1i64 3i64 } output { [1i64, 2i64, 3i64] }

-- ==
-- entry: up_to
-- input { 3i64 1i64 } error: Range 3i64\.\.4i64\.\.<1i64 is invalid\.
-- input { 3i64 3i64 } output { empty([0]i64) }
-- input { 1i64 3i64 } output { [1i64, 2i64] }

-- ==
-- entry: down_to
-- input { 1i64 3i64 } error: Range 1i64\.\.0i64\.\.>3i64 is invalid\.
-- input { 3i64 3i64 } output { empty([0]i64) }
-- input { 3i64 1i64 } output { [3i64, 2i64] }

-- ==
-- entry: stepped
-- input { 0i64 0i64 5i64 } error: Range 0i64\.\.0i64\.\.\.5i64 is invalid\.
-- input { 4i64 5i64 0i64 } error: Range 4i64\.\.5i64\.\.\.0i64 is invalid\.
-- input { 5i64 3i64 6i64 } error: Range 5i64\.\.3i64\.\.\.6i64 is invalid\.
-- input { 5i64 3i64 0i64 } output { [5i64, 3i64, 1i64] }

-- ==
-- entry: stepped_up_to
-- input { 4i64 5i64 0i64 } error: Range 4i64\.\.5i64\.\.<0i64 is invalid\.
-- input { 5i64 4i64 0i64 } error: Range 5i64\.\.4i64\.\.<0i64 is invalid\.
-- input { 0i64 2i64 5i64 } output { [0i64, 2i64, 4i64] }

-- ==
-- entry: stepped_down_to
-- input { 0i64 1i64 5i64 } error: Range 0i64\.\.1i64\.\.>5i64 is invalid\.
-- input { 5i64 5i64 0i64 } error: Range 5i64\.\.5i64\.\.>0i64 is invalid\.
-- input { 5i64 3i64 5i64 } output { empty([0]i64) }
-- input { 5i64 3i64 0i64 } output { [5i64, 3i64, 1i64] }

-- ==
-- entry: narrow
-- input { 5i32 2i32 } error: Range 5i32\.\.6i32\.\.\.2i32 is invalid\.
-- input { 2i32 3i32 } output { [2i32, 3i32] }

-- ==
-- entry: unsigned
-- input { 5u8 2u8 } error: Range 5u8\.\.6u8\.\.<2u8 is invalid\.
-- input { 254u8 255u8 } output { [254u8] }
-- input { 255u8 2u8 } error: Range 255u8\.\.0u8\.\.<2u8 is invalid\.

-- ==
-- entry: small
-- input { 127i8 0i8 } error: Range 127i8\.\.-128i8\.\.\.0i8 is invalid\.

-- ==
-- entry: small_down
-- input { -128i8 0i8 } error: Range -128i8\.\.127i8\.\.>0i8 is invalid\.

-- ==
-- entry: count
-- input { -3i64 } error: Range 0\.\.1\.\.<-3 is invalid\.
-- input { 0i64 } output { empty([0]i64) }

-- ==
-- entry: copies
-- input { -4i64 } error: Cannot replicate a negative number \(-4\) of times\.
-- input { 2i64 } output { [0i32, 0i32] }

-- ==
-- entry: in_map
-- input { [3i64, 1i64, 5i64] } error: Range 5i64\.\.6i64\.\.<3i64 is invalid\.
-- input { [0i64, 1i64] } output { [3i64, 3i64] }

entry inclusive (a: i64) (b: i64) : []i64 = a...b
entry up_to (a: i64) (b: i64) : []i64 = a..<b
entry down_to (a: i64) (b: i64) : []i64 = a..>b
entry stepped (a: i64) (s: i64) (b: i64) : []i64 = a..s...b
entry stepped_up_to (a: i64) (s: i64) (b: i64) : []i64 = a..s..<b
entry stepped_down_to (a: i64) (s: i64) (b: i64) : []i64 = a..s..>b
entry narrow (a: i32) (b: i32) : []i32 = a...b
entry unsigned (a: u8) (b: u8) : []u8 = a..<b
entry small (a: i8) (b: i8) : []i8 = a...b
entry small_down (a: i8) (b: i8) : []i8 = a..>b
entry count (n: i64) : []i64 = iota n
entry copies (n: i64) : []i32 = replicate n 0i32
entry in_map (xs: []i64) : []i64 = map (\(a: i64) -> reduce (+) 0 (a..<3)) xs
