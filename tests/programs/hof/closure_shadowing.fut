-- The closure captures the inner `a`; the argument uses the outer one
-- (defunctionalisation must not let the captured name shadow it).
-- ==
-- input { 1 } output { 3 }
def main (a: i32) =
  let f = let a = 2 in \x -> x + a
  in f a
