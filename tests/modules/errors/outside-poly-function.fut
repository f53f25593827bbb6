-- error: outside the paper's core: type parameters
-- §8's polymorphic functions are not transcribed.
def id 'a (x: a) : a = x
