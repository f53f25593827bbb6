-- error: outside the module language transcribed here: a polymorphic function without a parameter
-- §8.1 moves the first parameter into the module: there must be one.
def nothing 'a : i32 = 1
