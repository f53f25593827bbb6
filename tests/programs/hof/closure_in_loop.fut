-- A closure from outside a loop applied in its body.
-- ==
-- input { 5 } output { 32 }
def main (n: i32) = let f = \x -> x * 2 in loop acc = 1 for _i < n do f acc
