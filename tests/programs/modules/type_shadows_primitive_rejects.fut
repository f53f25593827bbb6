-- Where `u8` is shadowed by `u32`, a `u8` literal does not have type `u8`.
-- ==
-- error: expected.*u32.*found.*u8
module M = {
  type u8 = u32
  def get (x: i32) : [2]u8 = [6u8, 10u8]
}
def main (x: i32) : [2]u32 = M.get x
