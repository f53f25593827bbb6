-- error: §8.1: cannot instantiate the polymorphic function at its argument f: the argument has type i32, not an instance of
-- the argument is not a function, but the moved parameter's type is.
def apply 't 's (f: t -> s) (x: t) : s = f x
def z = apply 1
