-- Mandelbrot: escape-time iteration counts of an h x w grid over
-- [-2, 1] x [-1.5, 1.5], at most `limit` iterations (a while loop per pixel).
-- The 2 x 3 case is worked by hand: c = -2 - 1.5i and c = -2 escape after one
-- step, c = -1 - 1.5i and c = -1.5i after two; c = -1 and c = 0 never escape.
-- ==
-- input { 2i64 3i64 10i32 }
-- output { [[1i32, 2i32, 2i32], [1i32, 10i32, 10i32]] }
-- input { 16i64 16i64 50i32 }

-- ==
-- tags { large }
-- notest input { 1000i64 1000i64 100i32 }

def escape_time (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0f32, 0f32, 0i32)
    while i < limit && zr * zr + zi * zi < 4f32 do
      (zr * zr - zi * zi + cr, 2f32 * zr * zi + ci, i + 1)
  in i

def main (h: i64) (w: i64) (limit: i32) : [h][w]i32 =
  map (\y ->
         map (\x ->
                let cr = -2f32 + 3f32 * f32.i64 x / f32.i64 w
                let ci = -1.5f32 + 3f32 * f32.i64 y / f32.i64 h
                in escape_time limit cr ci)
             (iota w))
      (iota h)
