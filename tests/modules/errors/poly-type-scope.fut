-- error: rule 9: E(t) is undefined
-- §8.2's restriction: the instantiation is placed before its declaration, so
-- its arguments cannot mention names the declaration itself binds (here the
-- signature's own t).
type endo 'a = a -> a
module type S = { type t  val f: endo t }
