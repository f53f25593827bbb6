-- A run-time error raised inside the prelude's own code (`head` indexes its
-- argument) is located in the prelude file, also in a program that goes
-- through the module calculus (it names a numeric module). The reference
-- once elaborated the prelude under a file id of its own private source
-- map, so the location named the program's file at a position the prelude
-- chose (here past its end).
-- ==
-- input { empty([0]i64) } error: Error at <prelude>/toplevel.fut:38:
-- input { [3i64, 4i64] } output { 10i64 }

def main (xs: []i64) : i64 = head xs + i64.sum (map (* 1) xs)
