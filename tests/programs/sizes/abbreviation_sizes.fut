-- Size parameters of type abbreviations are checked like any size. The
-- coercion `:> []i32` (an anonymous size, inferred as `n`) makes the call
-- well typed in Futhark; the size is checked at run time.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { 32 }
-- input { [1, 2, 3] [4, 5] } error: Size mismatch
type vec [n] 't = [n]t
def dot [n] (a: vec [n] i32) (b: vec [n] i32) : i32 = reduce (+) 0 (map2 (*) a b)
def main (a: []i32) (b: []i32) = dot a (b :> []i32)
