-- error: outside the module language transcribed here: type declarations with parameters
-- §8's polymorphic types are not transcribed.
type t 'a = i32
