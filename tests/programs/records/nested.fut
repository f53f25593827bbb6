-- Nested records and nested update.
-- ==
-- input { 7 } output { 7 8 }
def main (v: i32) =
  let r = {a = {b = v, c = 0}, d = true}
  let s = r with a.c = v + 1
  in (s.a.b, s.a.c)
