-- accept: twice_plus : i32 -> i32 -> i32
-- TFP'18 Fig. 1a (examples/paper/tfp18_fig1a.fut): closures captured in a
-- higher-order function, used at an entry point of order zero.

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
