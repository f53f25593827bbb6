-- A polymorphic function over a record type.
-- ==
-- input { 4 } output { 4 true }
def get_x 't (r: {x: t, y: i32}) : t = r.x
def main (v: i32) = (get_x {x = v, y = 0}, get_x {x = true, y = 1})
