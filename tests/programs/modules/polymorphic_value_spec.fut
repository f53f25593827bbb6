-- Value specifications with type parameters (`val f 'a : a -> a`) matched by
-- polymorphic definitions, whose parameters may be named differently; the
-- sealed module's functions are used at several types.
-- ==
-- input { 7 true } output { 7 true 7 true 9 }
module type container = {
  val id 'a : a -> a
  val pair 'a 'b : a -> b -> (a, b)
}

module c : container = {
  def id 'x (v: x) : x = v
  def pair 'a 'b (x: a) (y: b) : (a, b) = (x, y)
}

module type applier = { val twice 'a : (a -> a) -> a -> a }

module use_applier (A: applier) = {
  def go (x: i32) : i32 = A.twice (\(y: i32) -> y + y / 2 + 1) x
}

module double = use_applier { def twice 'a (f: a -> a) (x: a) : a = f (f x) }

def main (n: i32) (b: bool) : (i32, bool, i32, bool, i32) =
  let (p, q) = c.pair n b
  in (c.id n, c.id b, p, q, double.go 2 + 2)
