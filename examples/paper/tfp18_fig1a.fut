-- TFP'18 (Hovgaard, Henriksen, Elsman: "High-Performance Defunctionalisation
-- in Futhark"), Fig. 1a: the source program before defunctionalisation.
-- `twice` returns a function and `f` is bound to a closure capturing `a`;
-- defunctionalisation (Fig. 1b) replaces the closures by records of their free
-- variables ({g = {a = a}}) and specialised first-order functions:
--
--   let g' (env:{a:i32}) (y:i32) = let a = env.a in y+a
--   let f' (env:{g:{a:i32}}) (x:i32) = let g = env.g in g' g (g' g x)
--   let main = let f = let a = 5 in {g = {a = a}} in f' f 1 + f' f 2
--
-- Changes from the figure: top-level `let` is `def`. The figure's `main` takes
-- no argument (an entry point of no parameters is a constant); `twice_plus`, a
-- second entry point not in the paper, abstracts the captured `5` and the
-- arguments to exercise the same closures on several inputs.

-- ==
-- input { } output { 23 }

-- ==
-- entry: twice_plus
-- input { 5 1 } output { 11 }
-- input { 5 2 } output { 12 }
-- input { -3 0 } output { -6 }

def twice (g:i32->i32) =
  \x -> g (g x)

def main =
  let f =
    let a = 5
    in twice (\y -> y+a)
  in f 1 + f 2

entry twice_plus (a: i32) (x: i32): i32 =
  let f = twice (\y -> y+a)
  in f x
