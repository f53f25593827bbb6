-- `type i32 = i32` names the primitive type in its definition (resolved
-- where it is declared), then shadows it; so does a module's.
-- ==
-- input { 3i32 } output { 5i32 }
type i32 = i32
module M = { type i64 = i64  def f (x: i64) : i64 = x + 1i64 }
def main (x: i32) : i32 = x + i32.i64 (M.f 1i64)
