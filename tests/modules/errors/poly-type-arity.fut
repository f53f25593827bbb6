-- error: §8.2: endo takes 1 type arguments: 2 given
-- an instantiation of a polymorphic type with the wrong number of arguments.
type endo 'a = a -> a
def f : endo i32 i32 = \(x: i32) -> x
