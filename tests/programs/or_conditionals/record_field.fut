-- runestone-options: or-conditionals
-- A conditional returning a record: only the function field becomes `Or`.
-- ==
-- input { true 4 } output { 5 4 }
-- input { false 4 } output { 3 4 }
def main (b: bool) (x: i32) =
  let r = if b then {f = \(y: i32) -> y + 1, v = x} else {f = \(y: i32) -> y - 1, v = x}
  in (r.f x, r.v)
