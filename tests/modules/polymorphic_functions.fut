-- ICFP'18 §8.1: polymorphic functions as parameterised modules. The first
-- parameter moves into the module parameter, with the type parameters; each
-- application `name exp` instantiates the functor at exp, the type arguments
-- found from exp's type (the calling context).
def apply 't 's (f: t -> s) (x: t) : s = f x
def twice 'a (f: a -> a) (x: a) : a = f (f x)
def const 'a (x: a) : a = x

def inc (x: i32) : i32 = x + 1
def add (x: i32) (y: i32) : i32 = x + y

-- instantiated at i32 → i32, at i32 → (i32 → i32), and at i32
def a = apply inc 1
def b : i32 -> i32 = apply add 2
def c = twice inc 3
def d = const 4

-- a polymorphic function using another
def thrice 'a (f: a -> a) (x: a) : a = f (twice f x)
def e = thrice inc 0

-- instantiation inside a functor, at the parameter's abstract type
module M (X: { type t  val step: t -> t  val x: t }) = {
  def y = twice X.step X.x
}
module N = M { type t = i32  def step = inc  def x = 10 }

def main (z: i32) : i32 = a + b z + c + d + e + N.y
