-- TFP'18 Fig. 1a verbatim (modulo `def`): main is a constant.
-- ==
-- input { } output { 23 }
def twice (g:i32->i32) =
  \x -> g (g x)

def main =
  let f =
    let a = 5
    in twice (\y -> y+a)
  in f 1 + f 2
