-- Entry points whose parameters and results are opaque to a server client
-- (tuples, records, sum types): tests/python/server_clients.py builds their
-- arguments with the protocol's `new`, `construct` and `zip` commands and
-- takes results apart with `project`, `destruct` and `unzip`; the test
-- blocks check the same entry points on every backend.
-- ==
-- entry: norm
-- input { 3f32 4f32 } output { 5f32 }

-- ==
-- entry: unwrap_or
-- input { 7i32 0i32 } output { 7i32 }
-- input { -7i32 0i32 } output { 0i32 }

-- ==
-- entry: total_mass
-- input { [1f64, 2f64] [0.5f64, 4f64] } output { 32.25f64 }

type point = {x: f32, y: f32}
type reading = #missing | #value i32

def length_of (p: point) : f32 = f32.sqrt (p.x * p.x + p.y * p.y)

def read (x: i32) : reading = if x > 0 then #value x else #missing

def or_default (r: reading) (d: i32) : i32 =
  match r
  case #value v -> v
  case #missing -> d

-- Opaque in, opaque out.
entry make_point (x: f32) (y: f32) : point = {x, y}
entry point_norm (p: point) : f32 = length_of p
entry make_reading (x: i32) : reading = read x
entry reading_or (r: reading) (d: i32) : i32 = or_default r d
entry weighted (particles: [](f64, f64)) : f64 =
  f64.sum (map (\(m, v) -> m * v * v) particles)

-- The same, transparent at the boundary, for the test blocks.
entry norm (x: f32) (y: f32) : f32 = length_of {x, y}
entry unwrap_or (x: i32) (d: i32) : i32 = or_default (read x) d
entry total_mass [n] (ms: [n]f64) (vs: [n]f64) : f64 = weighted (zip ms vs)
