-- An array of functions (TFP'18 T-Array) in the body of a functor that is
-- never applied: the reference finds it when ICFP'18 rule 70 samples the
-- closure (Proposition 6.1). A verdict-oracle mutant (seed 17, item 21 of the
-- mutation campaign's long budget) that the reference accepted about half
-- the time: its rule-70 check kept closures by address without holding them,
-- so a closure built while sampling and dropped could leave its address to
-- F64's closure, which was then skipped as already checked (SPEC_NOTES
-- ICFP18-24).
-- ==
-- error: bool -> i8

type shape1 = #left i32 i64 | #right i32 u16 | #circle i64

type shape2 = #square | #leaf | #node bool f32

type pair3 'a = (a, a)

module type S4 = {
  type t
  type u9 = i64
  val mk5 : i64 -> t
  val get6 : t -> u8
  val op7 : t -> t
}

module M10 : S4 with t = i32 = {
  type t = i32

  type u9 = i64

  def mk5 (x11 : i64) : t = 1i32

  def get6 (x12 : t) : u8 = [2u8, 3u8] |> reduce (+) 0u8

  def op7 (x13 : t) : t = x13
}

module F14 (X15: S4) = {
  def f16 (x17 : {a: i16, b: u64}) (x18 : u64) (x19 : (X15.t, u16)) : i64 =
    (let [m23] (ys24 : [m23]u64) =
      filter (let (x21, _) = (5.5f32, (#node false 1.5f32) : shape2) in
      \(p22 : u64) -> true) (map (\(p20 : [3]bool) -> x18) [replicate 3i64 false, [true, false, false], [true, true, false]])
    in
    i64.i16 4i16) : i64

  def f25 (x26 : f64) : i32 -> X15.t =
    let g27 (y28 : i32) : i16 =
      let (x29, x30) = (5u16, 0i8) in
      2i16 : i16
    in
    let g31 (y32 : bool) : i16 =
      match 12i32
      case 0i32 -> 12i16
      case 1i32 -> 5i16
      case _ -> 5i16
    in
    \(p33 : i32) -> X15.mk5 13i64
}

module type S35 = {
  include S4
  val op36 : t -> t
}

module F51 (X52: S4) (X53: S35) = {
  def f54 (x55 : []u16) (x56 : i16) (x57 : i32) : [3]bool =
    loop acc58 = reverse (replicate 3i64 false) for e59 in (4i64 ..> 0i64) do
      acc58

  def f60 (x61 : f64 -> bool) (x62 : []f64) : shape2 =
    (#node true (reduce (+) 0.0f32 (filter (\(p63 : f32) -> true) (replicate 1i64 7.5f32)))) : shape2
}

module F64 (X65: S4) (X66: S35) = {
  def f67 [n68] (x69 : [n68]i8) (x70 : [n68]shape2) : [n68]i8 =
    map ([\(p71 : bool) -> 1i8, \(p71 : bool) -> 1i8])[0i64] (replicate n68 false)

  def f72 [n73] (x74 : [n73]bool) : i32 = 4i32
}

entry main [n75] (x76 : [n75]i32) (x77 : bool) : f32 =
  match (let (x78 : (i32, f32)) = (13i32, 7.5f32) in
    x78.0 / 8i32)
  case 0i32 -> 3.5f32
  case 1i32 -> 3.5f32
  case _ ->
    f32.i32 (match (#node x77 5.5f32) : shape2
    case #square -> 15i32
    case #leaf -> 14i32
    case _ -> 7i32)


