-- The top-level functions of runestone's prelude, written in the language
-- itself over the intrinsics of the module-free core (reference
-- `front::from_surface::INTRINSICS`: map, reduce, scan, filter, iota …).
-- The numeric modules (`i32`, `f32`, ... with the module types `numeric`,
-- `integral`, `real`, `float`) come with the module calculus; until then
-- `t.f` for a primitive type `t` is provided directly by the front end.

def copy 't (x: t) : t = x

def id 'a (x: a) : a = x

def const 'a 'b (x: a) (_: b) : a = x

def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a) : c = f a b

def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b) : c = f (a, b)

def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)) : c = f p.0 p.1

def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)

def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)

def and (xs: []bool) : bool = reduce (&&) true xs

def or (xs: []bool) : bool = reduce (||) false xs

def all 'a (p: a -> bool) (xs: []a) : bool = reduce (&&) true (map p xs)

def any 'a (p: a -> bool) (xs: []a) : bool = reduce (||) false (map p xs)

def foldl 'a 'b (f: a -> b -> a) (acc: a) (bs: []b) : a =
  loop acc for b in bs do f acc b

def foldr 'a 'b (f: b -> a -> a) (acc: a) (bs: []b) : a =
  loop acc for b in reverse bs do f b acc

def head 't (xs: []t) : t = xs[0]

def last 't (xs: []t) : t = xs[length xs - 1]

def tail 't (xs: []t) : []t = xs[1:]

def init 't (xs: []t) : []t = xs[:length xs - 1]

def take 't (n: i64) (xs: []t) : []t = xs[:n]

def drop 't (n: i64) (xs: []t) : []t = xs[n:]

def split 't (n: i64) (xs: []t) : ([]t, []t) = (xs[:n], xs[n:])

def (++) 't (xs: []t) (ys: []t) : []t = concat xs ys
