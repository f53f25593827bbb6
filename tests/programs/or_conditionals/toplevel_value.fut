-- runestone-options: or-conditionals
-- A top-level declaration whose value is a function chosen by a
-- conditional: its static value is `Or`, its target value `#l {…}`.
-- ==
-- input { 4 } output { 5 }
def flag = true
def f = if flag then \(y: i32) -> y + 1 else \(y: i32) -> y - 1
def main (x: i32) = f x
