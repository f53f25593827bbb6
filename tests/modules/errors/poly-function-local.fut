-- error: rule 11: E(y) is undefined
-- §8.1's restriction: the argument of an instantiation may only mention names
-- bound outside the declaration (here the λ-bound y).
def const 'a (x: a) : a = x
def f (y: i32) : i32 = const y
