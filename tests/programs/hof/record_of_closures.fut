-- A function returning a record of closures over its argument.
-- ==
-- input { 10 } output { 10 15 }
def counter (start: i32) = {get = \(_: i32) -> start, inc = \(d: i32) -> start + d}
def main (s: i32) = let c = counter s in (c.get 0, c.inc 5)
