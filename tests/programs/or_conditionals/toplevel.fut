-- runestone-options: or-conditionals
-- A top-level function chosen by a conditional inside a function.
-- ==
-- input { true } output { [2, 3] }
-- input { false } output { [0, 1] }
def pick (b: bool) : i32 -> i32 = if b then \x -> x + 1 else \x -> x - 1
def main (b: bool) = map (pick b) [1, 2]
