-- A minimal stand-in for the `argb` module of Futhark's colour library
-- (github.com/athas/matte), which the ICFP'18 §10 Game of Life uses for
-- visualisation. It is not part of Futhark's prelude, so these examples carry
-- their own: a colour is a `u32` packing alpha, red, green and blue bytes
-- (0xAARRGGBB), and `mix` averages two colours channel by channel, weighted.

module argb = {
  type colour = u32

  -- Channels in [0,1]; values outside are clamped.
  def from_rgba (r: f32) (g: f32) (b: f32) (a: f32): colour =
    let byte (x: f32): u32 = u32.f32 (f32.max 0.0 (f32.min 1.0 x) * 255.0)
    in (byte a << 24) | (byte r << 16) | (byte g << 8) | byte b

  def to_rgba (c: colour): (f32, f32, f32, f32) =
    let channel (shift: u32): f32 = f32.u32 ((c >> shift) & 0xFF) / 255.0
    in (channel 16, channel 8, channel 0, channel 24)

  -- `mix w1 c1 w2 c2`: the average of `c1` and `c2` weighted by `w1` and `w2`.
  def mix (w1: f32) (c1: colour) (w2: f32) (c2: colour): colour =
    let (r1, g1, b1, a1) = to_rgba c1
    let (r2, g2, b2, a2) = to_rgba c2
    let avg (x1: f32) (x2: f32): f32 = (w1 * x1 + w2 * x2) / (w1 + w2)
    in from_rgba (avg r1 r2) (avg g1 g2) (avg b1 b2) (avg a1 a2)

  def black: colour = 0xFF000000
  def white: colour = 0xFFFFFFFF
  def red: colour = 0xFFFF0000
  def green: colour = 0xFF00FF00
  def blue: colour = 0xFF0000FF
}
