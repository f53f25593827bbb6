-- A polymorphic function's instance whose type variable nothing
-- determines: every closed instance types the program, so it is accepted
-- (value campaign, seed 100000, programs 71373 and 74159; SPEC_NOTES
-- TFP18-21).
-- ==
-- input { 3 } output { 3 14 }
-- input { -5 } output { -5 14 }

def f 'a (x: a) : i32 = 6

def constant 'a 'b (x: a) (_: b) : a = x

entry main (x: i32) : (i32, i32) =
  let r = {a = 14i32, b = f} in
  let g = \y -> 1i32 in
  let pair = (f, constant x) in
  let _unused = (g, pair.0) in
  (x + 0 * (pair.1 7), r.a)
