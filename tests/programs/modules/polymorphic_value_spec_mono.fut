-- A monomorphic definition does not match a polymorphic value specification.
-- ==
-- error: val(ue)? `?id`? has type
module type M = { val id 'a : a -> a }
module m : M = { def id (x: i32) : i32 = x }
def main (n: i32) : i32 = m.id n
