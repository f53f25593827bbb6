-- The top-level functions of runestone's prelude, written in the language
-- itself over the intrinsics of the module-free core (reference
-- `front::from_surface::INTRINSICS`: map, reduce, scan, filter, iota …).
-- The numeric modules (`i32`, `f32`, ... with the module types `numeric`,
-- `integral`, `real`, `float`) come with the module calculus; until then
-- `t.f` for a primitive type `t` is provided directly by the front end.

def copy 't (x: t) : *t = [x][0] -- fresh storage, as proofs-notes/uniqueness.md judges it

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

def (++) 't (xs: []t) (ys: []t) : *[]t = concat xs ys

-- Construction and iteration (Futhark's prelude, `array.fut` and
-- `functional.fut`, written from its documentation).

def null 't (xs: []t) : bool = length xs == 0

def manifest 't (xs: []t) : *[]t = copy xs

def opaque 't (x: t) : t = x

def tabulate 'a (n: i64) (f: i64 -> a) : *[]a = map f (iota n)

def indices [n] 't (_: [n]t) : *[n]i64 = iota n

def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[][]a =
  map (\i -> map (f i) (iota m)) (iota n)

def tabulate_3d 'a (n: i64) (m: i64) (l: i64) (f: i64 -> i64 -> i64 -> a) : *[][][]a =
  map (\i -> map (\j -> map (f i j) (iota l)) (iota m)) (iota n)

def iterate 'a (n: i32) (f: a -> a) (x: a) : a =
  loop x for _i < n do f x

def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while !(p x) do f x

def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while p x do f x

def flatten_3d 't (xs: [][][]t) : []t = flatten (flatten xs)

def flatten_4d 't (xs: [][][][]t) : []t = flatten (flatten (flatten xs))

def unflatten_3d 't (n: i64) (m: i64) (l: i64) (xs: []t) : [][][]t =
  map (unflatten m l) (unflatten n (m * l) xs)

def unflatten_4d 't (n: i64) (m: i64) (l: i64) (k: i64) (xs: []t) : [][][][]t =
  map (unflatten_3d m l k) (unflatten n (m * l * k) xs)

-- Scans, histograms and scatters.

def exscan 'a (op: a -> a -> a) (ne: a) (as: []a) : *[]a =
  let inclusive = scan op ne as
  in map (\i -> if i == 0 then ne else inclusive[i - 1]) (iota (length as))

def partition2 'a (p1: a -> bool) (p2: a -> bool) (as: []a) : ([]a, []a, []a) =
  ( filter p1 as
  , filter (\x -> !(p1 x) && p2 x) as
  , filter (\x -> !(p1 x) && !(p2 x)) as
  )

def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (as: [n]a) : *[k]a =
  reduce_by_index (replicate k ne) op ne is as

def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t =
  scatter (replicate k x) is vs

-- The 2-D and 3-D forms index the flattened destination; an index out of
-- bounds in any dimension becomes -1, which `scatter` and `reduce_by_index`
-- ignore.

def scatter_2d 't [n][m][k] (dest: *[n][m]t) (is: [k](i64, i64)) (vs: [k]t) : *[n][m]t =
  unflatten n m (scatter (flatten dest) (map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is) vs)

def scatter_3d 't [n][m][l][k] (dest: *[n][m][l]t) (is: [k](i64, i64, i64)) (vs: [k]t) : *[n][m][l]t =
  unflatten_3d n m l (scatter (flatten_3d dest) (map (\(i, j, h) -> if i >= 0 && i < n && j >= 0 && j < m && h >= 0 && h < l then (i * m + j) * l + h else -1) is) vs)

def reduce_by_index_2d 'a [n][m][k] (dest: *[n][m]a) (op: a -> a -> a) (ne: a) (is: [k](i64, i64)) (as: [k]a) : *[n][m]a =
  unflatten n m (reduce_by_index (flatten dest) op ne (map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is) as)

def reduce_by_index_3d 'a [n][m][l][k] (dest: *[n][m][l]a) (op: a -> a -> a) (ne: a) (is: [k](i64, i64, i64)) (as: [k]a) : *[n][m][l]a =
  unflatten_3d n m l (reduce_by_index (flatten_3d dest) op ne (map (\(i, j, h) -> if i >= 0 && i < n && j >= 0 && j < m && h >= 0 && h < l then (i * m + j) * l + h else -1) is) as)

-- `xs` with its size said to be `n` (a run-time error when it is not).
def sized 't [m] (n: i64) (xs: [m]t) : [n]t = xs :> [n]t
