-- reject: the result of `if` may not be a function @ 9:3
-- TFP'18 §2.2: a conditional may not return a function, even when both
-- branches are closures of the same type.

def choose (b: bool) (k: i32) : i32 -> i32 =
  let add = \(x: i32) -> x + k
  let mul = \(x: i32) -> x * k
  in
  if b then add else mul

def main (b: bool) (x: i32) : i32 = choose b 3 x
