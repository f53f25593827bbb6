-- A complex-number library over the prelude's `real` module type, applied
-- to `f32` and `f64` (whose `t` is the primitive type, the ascriptions being
-- transparent). (1+2i)(3-1i) = 5+5i; |3+4i| = 5; (1+1i)^2 = 2i.
-- ==
-- input { 1f32 2f32 3f32 -1f32 } output { 5f32 5f32 5f64 0f64 2f64 }
-- input { 0f32 1f32 0f32 1f32 } output { -1f32 0f32 5f64 0f64 2f64 }
module mk_complex (R: real) = {
  type real = R.t
  type complex = (R.t, R.t)
  def mk (a: real) (b: real) : complex = (a, b)
  def re ((a, _): complex) : real = a
  def im ((_, b): complex) : real = b
  def add ((a, b): complex) ((c, d): complex) : complex = (a R.+ c, b R.+ d)
  def mul ((a, b): complex) ((c, d): complex) : complex =
    (a R.* c R.- b R.* d, a R.* d R.+ b R.* c)
  def mag ((a, b): complex) : real = R.sqrt (a R.* a R.+ b R.* b)
  def zero : complex = (R.i32 0, R.i32 0)
}

module c32 = mk_complex f32
module c64 = mk_complex f64

def main (a: f32) (b: f32) (c: f32) (d: f32) : (f32, f32, f64, f64, f64) =
  let p = c32.mul (c32.mk a b) (c32.mk c d)
  let z = c64.mk 3f64 4f64
  let w = c64.mul (c64.mk 1f64 1f64) (c64.mk 1f64 1f64)
  in (c32.re p, c32.im p, c64.mag z, c64.re (c64.add w c64.zero), c64.im w)
