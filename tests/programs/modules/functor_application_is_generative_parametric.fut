-- Generativity for an abstract type with parameters: each application of
-- `mk_boxes` makes its own `box`, so `Y.get` does not take an `X.box i32`.
-- The reference does not elaborate parametric type specifications yet
-- (listed in driver/tests/expected_failures/reference.txt, issue 26).
-- ==
-- error: expected .*box.*found .*box
module type boxes = {
  type box 'a
  val put 'a : a -> box a
  val get 'a : box a -> a
}

module mk_boxes (P: {}) : boxes = {
  type box 'a = (a, i32)
  def put x = (x, 0i32)
  def get (x, _) = x
}

module X = mk_boxes {}
module Y = mk_boxes {}

def main (k: i32) : i32 = Y.get (X.put k)
