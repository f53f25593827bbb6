-- A functor over the prelude's `integral` module type used at two types:
-- gcd by the remainder `%%`, and `highest` of each type.
-- gcd 12 18 = 6 (i32); gcd 35 21 = 7 (u8).
-- ==
-- input { 12 18 35u8 21u8 } output { 6 7u8 2147483647 255u8 }
-- input { 7 0 0u8 9u8 } output { 7 9u8 2147483647 255u8 }
module mk_gcd (I: integral) = {
  def gcd (a: I.t) (b: I.t) : I.t =
    let (a, _) = loop (a, b) = (a, b) while b I.!= I.i32 0 do (b, a I.%% b)
    in a
  def top : I.t = I.highest
}

module gcd_i32 = mk_gcd i32
module gcd_u8 = mk_gcd u8

def main (a: i32) (b: i32) (c: u8) (d: u8) : (i32, u8, i32, u8) =
  (gcd_i32.gcd a b, gcd_u8.gcd c d, gcd_i32.top, gcd_u8.top)
