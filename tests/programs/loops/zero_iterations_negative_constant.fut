-- A loop of no iterations whose initial values include a negative `i64`
-- constant and something else: the simplifier replaced the loop by its
-- initial values but kept a binding for the negative constant only when
-- the loop had one result, so the IR named a removed value (value oracle,
-- seed 424242, program 13620: a sum type's payload through a `for … in` over
-- an empty slice).
-- ==
-- input { 1i64 } output { -8i64 6i32 }

type shape = #right | #square i64 i32

entry main (x: i64) : (i64, i32) =
  let x17 = -8i64
  let (a, b) = loop acc = (x17, 6i32) for i < 0 do acc
  let s = loop acc = (#square x17 6i32) : shape
          for e in (let arr = [11i32] in arr[:length arr / 2]) do acc
  in match s
     case #square p q -> (a + p - p + 0 * x, b + q - q)
     case #right -> (0, 0)

-- ==
-- entry: record
-- input { 2i64 } output { -3i64 -4i64 2i64 }

entry record (x: i64) : (i64, i64, i64) =
  let r = loop acc = {p = -3i64, q = -4i64, r = x} for i < 0 do acc
  in (r.p, r.q, r.r)
