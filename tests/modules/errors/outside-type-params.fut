-- error: outside the module language transcribed here: size parameters of polymorphic types (§8.2)
-- size parameters are outside the paper's core.
type vec [n] = i32
