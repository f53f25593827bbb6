-- Only module types and a type: the target code is ε (rule 43), and the
-- module types are type explicit (Proposition 7.1). `type t = ty` in a
-- specification is eq. (8); `include` is rule 22; `with` on a nested module's
-- type is rule 16 with a long type identifier.
type num = i32
module type Inner = { type t  val zero: t }
module type Outer = {
  module I: Inner
  type u = I.t -> num
  val f: u
}
module type Refined = Outer with I.t = num
module type Functorial = (X: Inner) -> { include Inner  val from: X.t -> t }
