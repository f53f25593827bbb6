-- Three nested closures capturing one variable each.
-- ==
-- input { 1 2 3 } output { 6 }
def main (a: i32) (b: i32) (c: i32) =
  let f = \x -> \y -> \z -> x + y + z
  let g = f a
  let h = g b
  in h c
