-- runestone-options: fuel=100000
-- A loop that never ends runs out of fuel (a resource limit, not `err`).
-- ==
-- input { 1 } error: out of fuel
-- input { -5 } output { -5 }
def main (x: i32) = loop x while x > 0 do x
