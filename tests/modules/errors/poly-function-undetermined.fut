-- error: §8.1: cannot instantiate the polymorphic function at its argument x: the type parameter b is not determined by the argument
-- a type parameter that the moved parameter's type does not mention.
def first 'a 'b (x: a) (y: b) : a = x
def z = first 1
