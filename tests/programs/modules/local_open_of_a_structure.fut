-- Futhark's local open `m.(e)`: `e` sees the module's values and types
-- unqualified, its submodules by paths relative to it, and the opened
-- names shadow the ones around it (`M.x` hides the parameter `x` below).
-- The reference elaborated no local open until issue 26
-- (`ICFP18 tfp18-core-local-open`).
-- ==
-- input { 5 } output { 16 62 12 [1, 2] }
module M = {
  type t = i32
  def x : t = 10
  def scale (y: t) : t = y * 3
  module N = { def y : i32 = 2 }
}

def main (x: i32) =
  ( M.(x + scale 2)
  , M.(let z : t = scale (x + N.y) in z + N.(y * 13))
  , i32.(x + 7) + i32.min 0 x
  , M.N.([y - 1, y]) )
