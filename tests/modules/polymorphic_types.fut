-- ICFP'18 §8.2: polymorphic types as parameterised modules. Each declaration
-- `type name 'a … = ty` becomes a functor over `{ type a … }`, and each use
-- `name ty₁ …` inside a declaration instantiates it with an application placed
-- before that declaration (`local module P = Name({…}) in …`).
type endo 'a = a -> a
type fn 'a 'b = a -> b

def inc : endo i32 = \(x: i32) -> x + 1
def twice (f: endo i32) (x: i32) : i32 = f (f x)

module type Counter = {
  type t
  val start: t
  val step: t -> t
}

-- the instantiation may mention the enclosing declaration's parameters
-- (rule 28 elaborates the hoisted application inside the functor body)
module Make (X: { type t  val start: t  val next: t -> t }) : Counter with t = X.t = {
  type t = X.t
  def start : t = X.start
  def step : endo X.t = X.next
}

module C = Make { type t = i32  def start = 0  def next (x: i32) : i32 = x + 1 }

def apply2 : fn (endo i32) (fn i32 i32) = \(f: endo i32) -> \(x: i32) -> twice f x
def main (x: i32) : i32 = apply2 inc (C.step x)
