-- Types, type abbreviations with parameters, sizes, liftedness, uniqueness,
-- sum types and `match`, and patterns of every form.
-- ==
-- entry: classify
-- input { 0 } output { 1 }
-- input { 5 } output { 2 }
-- input { -3 } output { 3 }

type vec [n] 't = [n]t
type pair 'a 'b = (a, b)
type^ fun 'a = a -> a
type~ some_vec = ?[k].[k]i32
type shape = #circle f32 | #rect f32 f32 | #empty

def sum [n] (xs: vec [n] i32) : i32 = reduce (+) 0 xs

def swap 'a 'b ((x, y): pair a b) : pair b a = (y, x)

def apply_twice '^a (f: fun a) (x: a) : a = f (f x)

def consume (xs: *[]i32) : *[]i32 = xs with [0] = 0

def area (s: shape) : f32 =
  match s
  case #circle r -> 3.14f32 * r * r
  case #rect w h -> w * h
  case #empty -> 0

entry classify (x: i32) : i32 =
  match x
  case 0 -> 1
  case -3 -> 3
  case _ -> 2

def patterns ((a, _): (i32, i32)) ({x, y = z}: {x: i32, y: i32}) (#[unused] w: i32) = a + x + z + w
