-- Core expressions: literals of every type, operators with Futhark's
-- precedence, sections, pipes, lambdas, let-chains with and without `in`,
-- `if`, loops, indexing, slicing, updates, records, tuples, ranges,
-- ascription, and locally opened modules.
-- ==
-- input { [1, 2, 3, 4] } output { 194 }

def literals =
  (1i8, 2i16, 3i32, 4i64, 5u8, 6u16, 7u32, 8u64, 1.5f32, 2.5f64, true, false, 0xffu8, 0b101, 1_000)

def precedence (a: i32) (b: i32) (c: i32) : bool =
  a + b * c ** 2 - a / b % c == a << 1 >> 1 & b | c ^ a && a < b || !(b >= c)

def sections (xs: []i32) =
  let ys = map (+ 1) xs
  let zs = map (2 *) ys
  let ws = map (\x -> x - 1) zs
  in reduce (+) 0 ws

def pipes (xs: []i32) = xs |> map (* 2) |> reduce (+) 0

def loops (n: i32) =
  let a = loop acc = 0 for i < n do acc + i
  let b = loop (x, y) = (0, 1) while x < 100 do (y, x + y)
  let c = loop s = 0 for v in [1, 2, 3] do s + v
  in a + b.0 + c

def arrays (xs: []i32) =
  let n = length xs
  let first = xs[0]
  let tail = xs[1:]
  let rev = xs[::-1]
  let ys = (copy xs) with [0] = 42
  let zs = copy ys
  let zs[1] = 7
  in (n, first, tail, rev, zs, 0..<n, 1..2...7, iota 3)

def records =
  let r = {a = 1i32, b = (2i32, true)}
  let s = r with a = 3
  let {a, b = (x, _)} = s
  in a + x + (.a) r + s.b.0

def open_in (x: f32) = f32.(sqrt x + pi)

def ascribed = (1 : i64) + (2 :> i64)

def main (xs: []i32) : i32 =
  sections xs + pipes xs + loops 0
