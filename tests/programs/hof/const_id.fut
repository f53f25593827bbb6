-- id and const from the prelude.
-- ==
-- input { 5 } output { 5 7 }
def main (x: i32) = (id x, const 7i32 true)
