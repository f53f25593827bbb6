-- The numeric modules of runestone's prelude, written in the language itself:
-- the module types `from_prim`, `numeric`, `integral`, `real` and `float` (the
-- subset of Futhark's that runestone supports) and the modules `i8 i16 i32
-- i64 u8 u16 u32 u64 f32 f64 bool`, each ascribed transparently
-- (`module f32 : float with t = f32`), so `f32.t` is `f32` and
-- `module c = mk_complex f32` works for any functor over `real`/`float`.
--
-- Both implementations load this file (`include_str!`): the reference
-- elaborates and statically interprets it once per thread as the initial
-- basis of its TFP'18 core instance (E₀, 𝓔₀, Γ₀; SPEC_NOTES ICFP18-18), the
-- optimised checker checks it before every program. The declarations are
-- ordinary: arithmetic and comparison use the language's own overloaded
-- operators at the module's type, `sum`/`product`/`maximum`/`minimum` are
-- `reduce`s, `highest`/`lowest` are literals, `inf`/`nan` are IEEE divisions.
--
-- Intrinsics. What the language cannot express is one of these names, bound
-- only while this file is checked (a user program naming one gets "unknown
-- name"; none can clash with a user's definition):
--
--   __prim_to_T x      for T in i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool:
--                      x of any primitive type converted to T (Futhark's
--                      conversions: integers wrap, floats truncate towards
--                      zero, `bool` is `x != 0`, `true` is 1)
--   __prim_abs x, __prim_sgn x, __prim_min x y, __prim_max x y
--                      on any numeric type (float `min`/`max` return the
--                      operand that is not NaN)
--   __prim_F x         for F in sqrt exp log log2 log10 sin cos tan asin acos
--                      atan sinh cosh tanh asinh acosh atanh floor ceil
--                      round trunc cbrt log1p gamma lgamma erf erfc
--                      (floats; `round` rounds half to even, `lgamma` is
--                      log |Γ|)
--   __prim_atan2 y x   (floats)
--   __prim_fma a b c   (floats: the exact a * b + c rounded once)
--   __prim_isnan x, __prim_isinf x   (floats, to bool)
--   __prim_popc x, __prim_clz x, __prim_ctz x
--                      (integers, to i32: one bits, leading and trailing
--                      zero bits; `num_bits` for 0)
--   __prim_mul_hi x y  (integers: the high half of the double-width
--                      product, signed for signed types)
--   __prim_reinterpret_T x   for T in u32 u64 f32 f64: the bits of x, a
--                      float or unsigned integer of T's width and the other
--                      kind, read as a T (`to_bits`, `from_bits`)
--
-- In the reference each is a core intrinsic (`core::syntax::Intrinsic::
-- Convert`/`Math`); in the optimised checker each is a polymorphic built-in
-- whose uses here are all at one primitive type.

module type from_prim = {
  type t
  val i8 : i8 -> t
  val i16 : i16 -> t
  val i32 : i32 -> t
  val i64 : i64 -> t
  val u8 : u8 -> t
  val u16 : u16 -> t
  val u32 : u32 -> t
  val u64 : u64 -> t
  val f32 : f32 -> t
  val f64 : f64 -> t
  val bool : bool -> t
}

module type numeric = {
  include from_prim
  val (+) : t -> t -> t
  val (-) : t -> t -> t
  val (*) : t -> t -> t
  val (/) : t -> t -> t
  val (%) : t -> t -> t
  val (**) : t -> t -> t
  val (==) : t -> t -> bool
  val (!=) : t -> t -> bool
  val (<) : t -> t -> bool
  val (>) : t -> t -> bool
  val (<=) : t -> t -> bool
  val (>=) : t -> t -> bool
  val neg : t -> t
  val abs : t -> t
  val sgn : t -> t
  val max : t -> t -> t
  val min : t -> t -> t
  val highest : t
  val lowest : t
  val to_i64 : t -> i64
  val to_f64 : t -> f64
  val sum [n] : [n]t -> t
  val product [n] : [n]t -> t
  val maximum [n] : [n]t -> t
  val minimum [n] : [n]t -> t
}

module type integral = {
  include numeric
  val (//) : t -> t -> t
  val (%%) : t -> t -> t
  val (&) : t -> t -> t
  val (|) : t -> t -> t
  val (^) : t -> t -> t
  val (<<) : t -> t -> t
  val (>>) : t -> t -> t
  val (>>>) : t -> t -> t
  val not : t -> t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val popc : t -> i32
  val mul_hi : t -> t -> t
  val mad_hi : t -> t -> t -> t
  val clz : t -> i32
  val ctz : t -> i32
}

module type real = {
  include numeric
  val recip : t -> t
  val from_fraction : i64 -> i64 -> t
  val sqrt : t -> t
  val cbrt : t -> t
  val exp : t -> t
  val log : t -> t
  val log2 : t -> t
  val log10 : t -> t
  val sin : t -> t
  val cos : t -> t
  val tan : t -> t
  val asin : t -> t
  val acos : t -> t
  val atan : t -> t
  val sinh : t -> t
  val cosh : t -> t
  val tanh : t -> t
  val asinh : t -> t
  val acosh : t -> t
  val atanh : t -> t
  val gamma : t -> t
  val lgamma : t -> t
  val erf : t -> t
  val erfc : t -> t
  val log1p : t -> t
  val mad : t -> t -> t -> t
  val fma : t -> t -> t -> t
  val floor : t -> t
  val ceil : t -> t
  val round : t -> t
  val trunc : t -> t
  val atan2 : t -> t -> t
  val hypot : t -> t -> t
  val lerp : t -> t -> t -> t
  val isinf : t -> bool
  val isnan : t -> bool
  val inf : t
  val nan : t
  val pi : t
  val e : t
}

module type float = {
  include real
  type int_t
  val from_bits : int_t -> t
  val to_bits : t -> int_t
  val epsilon : t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val nextafter : t -> t -> t
  val ldexp : t -> i32 -> t
}

module i8 : integral with t = i8 = {
  type t = i8
  def highest : t = 127i8
  def lowest : t = -128i8
  def i8 (x: i8) : t = __prim_to_i8 x
  def i16 (x: i16) : t = __prim_to_i8 x
  def i32 (x: i32) : t = __prim_to_i8 x
  def i64 (x: i64) : t = __prim_to_i8 x
  def u8 (x: u8) : t = __prim_to_i8 x
  def u16 (x: u16) : t = __prim_to_i8 x
  def u32 (x: u32) : t = __prim_to_i8 x
  def u64 (x: u64) : t = __prim_to_i8 x
  def f32 (x: f32) : t = __prim_to_i8 x
  def f64 (x: f64) : t = __prim_to_i8 x
  def bool (x: bool) : t = __prim_to_i8 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0i8 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0i8 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1i8 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ -1i8
  def num_bits : i32 = 8
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_i8 bit) & 1i8)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1i8 << __prim_to_i8 bit)) | (__prim_to_i8 b << __prim_to_i8 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module i16 : integral with t = i16 = {
  type t = i16
  def highest : t = 32767i16
  def lowest : t = -32768i16
  def i8 (x: i8) : t = __prim_to_i16 x
  def i16 (x: i16) : t = __prim_to_i16 x
  def i32 (x: i32) : t = __prim_to_i16 x
  def i64 (x: i64) : t = __prim_to_i16 x
  def u8 (x: u8) : t = __prim_to_i16 x
  def u16 (x: u16) : t = __prim_to_i16 x
  def u32 (x: u32) : t = __prim_to_i16 x
  def u64 (x: u64) : t = __prim_to_i16 x
  def f32 (x: f32) : t = __prim_to_i16 x
  def f64 (x: f64) : t = __prim_to_i16 x
  def bool (x: bool) : t = __prim_to_i16 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0i16 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0i16 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1i16 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ -1i16
  def num_bits : i32 = 16
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_i16 bit) & 1i16)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1i16 << __prim_to_i16 bit)) | (__prim_to_i16 b << __prim_to_i16 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module i32 : integral with t = i32 = {
  type t = i32
  def highest : t = 2147483647i32
  def lowest : t = -2147483648i32
  def i8 (x: i8) : t = __prim_to_i32 x
  def i16 (x: i16) : t = __prim_to_i32 x
  def i32 (x: i32) : t = __prim_to_i32 x
  def i64 (x: i64) : t = __prim_to_i32 x
  def u8 (x: u8) : t = __prim_to_i32 x
  def u16 (x: u16) : t = __prim_to_i32 x
  def u32 (x: u32) : t = __prim_to_i32 x
  def u64 (x: u64) : t = __prim_to_i32 x
  def f32 (x: f32) : t = __prim_to_i32 x
  def f64 (x: f64) : t = __prim_to_i32 x
  def bool (x: bool) : t = __prim_to_i32 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0i32 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0i32 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1i32 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ -1i32
  def num_bits : i32 = 32
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_i32 bit) & 1i32)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1i32 << __prim_to_i32 bit)) | (__prim_to_i32 b << __prim_to_i32 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module i64 : integral with t = i64 = {
  type t = i64
  def highest : t = 9223372036854775807i64
  def lowest : t = -9223372036854775808i64
  def i8 (x: i8) : t = __prim_to_i64 x
  def i16 (x: i16) : t = __prim_to_i64 x
  def i32 (x: i32) : t = __prim_to_i64 x
  def i64 (x: i64) : t = __prim_to_i64 x
  def u8 (x: u8) : t = __prim_to_i64 x
  def u16 (x: u16) : t = __prim_to_i64 x
  def u32 (x: u32) : t = __prim_to_i64 x
  def u64 (x: u64) : t = __prim_to_i64 x
  def f32 (x: f32) : t = __prim_to_i64 x
  def f64 (x: f64) : t = __prim_to_i64 x
  def bool (x: bool) : t = __prim_to_i64 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0i64 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0i64 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1i64 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ -1i64
  def num_bits : i32 = 64
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_i64 bit) & 1i64)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1i64 << __prim_to_i64 bit)) | (__prim_to_i64 b << __prim_to_i64 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module u8 : integral with t = u8 = {
  type t = u8
  def highest : t = 255u8
  def lowest : t = 0u8
  def i8 (x: i8) : t = __prim_to_u8 x
  def i16 (x: i16) : t = __prim_to_u8 x
  def i32 (x: i32) : t = __prim_to_u8 x
  def i64 (x: i64) : t = __prim_to_u8 x
  def u8 (x: u8) : t = __prim_to_u8 x
  def u16 (x: u16) : t = __prim_to_u8 x
  def u32 (x: u32) : t = __prim_to_u8 x
  def u64 (x: u64) : t = __prim_to_u8 x
  def f32 (x: f32) : t = __prim_to_u8 x
  def f64 (x: f64) : t = __prim_to_u8 x
  def bool (x: bool) : t = __prim_to_u8 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0u8 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0u8 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1u8 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ 255u8
  def num_bits : i32 = 8
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_u8 bit) & 1u8)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1u8 << __prim_to_u8 bit)) | (__prim_to_u8 b << __prim_to_u8 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module u16 : integral with t = u16 = {
  type t = u16
  def highest : t = 65535u16
  def lowest : t = 0u16
  def i8 (x: i8) : t = __prim_to_u16 x
  def i16 (x: i16) : t = __prim_to_u16 x
  def i32 (x: i32) : t = __prim_to_u16 x
  def i64 (x: i64) : t = __prim_to_u16 x
  def u8 (x: u8) : t = __prim_to_u16 x
  def u16 (x: u16) : t = __prim_to_u16 x
  def u32 (x: u32) : t = __prim_to_u16 x
  def u64 (x: u64) : t = __prim_to_u16 x
  def f32 (x: f32) : t = __prim_to_u16 x
  def f64 (x: f64) : t = __prim_to_u16 x
  def bool (x: bool) : t = __prim_to_u16 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0u16 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0u16 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1u16 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ 65535u16
  def num_bits : i32 = 16
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_u16 bit) & 1u16)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1u16 << __prim_to_u16 bit)) | (__prim_to_u16 b << __prim_to_u16 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module u32 : integral with t = u32 = {
  type t = u32
  def highest : t = 4294967295u32
  def lowest : t = 0u32
  def i8 (x: i8) : t = __prim_to_u32 x
  def i16 (x: i16) : t = __prim_to_u32 x
  def i32 (x: i32) : t = __prim_to_u32 x
  def i64 (x: i64) : t = __prim_to_u32 x
  def u8 (x: u8) : t = __prim_to_u32 x
  def u16 (x: u16) : t = __prim_to_u32 x
  def u32 (x: u32) : t = __prim_to_u32 x
  def u64 (x: u64) : t = __prim_to_u32 x
  def f32 (x: f32) : t = __prim_to_u32 x
  def f64 (x: f64) : t = __prim_to_u32 x
  def bool (x: bool) : t = __prim_to_u32 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0u32 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0u32 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1u32 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ 4294967295u32
  def num_bits : i32 = 32
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_u32 bit) & 1u32)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1u32 << __prim_to_u32 bit)) | (__prim_to_u32 b << __prim_to_u32 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module u64 : integral with t = u64 = {
  type t = u64
  def highest : t = 18446744073709551615u64
  def lowest : t = 0u64
  def i8 (x: i8) : t = __prim_to_u64 x
  def i16 (x: i16) : t = __prim_to_u64 x
  def i32 (x: i32) : t = __prim_to_u64 x
  def i64 (x: i64) : t = __prim_to_u64 x
  def u8 (x: u8) : t = __prim_to_u64 x
  def u16 (x: u16) : t = __prim_to_u64 x
  def u32 (x: u32) : t = __prim_to_u64 x
  def u64 (x: u64) : t = __prim_to_u64 x
  def f32 (x: f32) : t = __prim_to_u64 x
  def f64 (x: f64) : t = __prim_to_u64 x
  def bool (x: bool) : t = __prim_to_u64 x
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0u64 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0u64 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1u64 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def (//) (x: t) (y: t) : t = x // y
  def (%%) (x: t) (y: t) : t = x %% y
  def (&) (x: t) (y: t) : t = x & y
  def (|) (x: t) (y: t) : t = x | y
  def (^) (x: t) (y: t) : t = x ^ y
  def (<<) (x: t) (y: t) : t = x << y
  def (>>) (x: t) (y: t) : t = x >> y
  def (>>>) (x: t) (y: t) : t = x >>> y
  def not (x: t) : t = x ^ 18446744073709551615u64
  def num_bits : i32 = 64
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((x >> __prim_to_u64 bit) & 1u64)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    (x & not (1u64 << __prim_to_u64 bit)) | (__prim_to_u64 b << __prim_to_u64 bit)
  def popc (x: t) : i32 = __prim_popc x
  def mul_hi (x: t) (y: t) : t = __prim_mul_hi x y
  def mad_hi (a: t) (b: t) (c: t) : t = __prim_mul_hi a b + c
  def clz (x: t) : i32 = __prim_clz x
  def ctz (x: t) : i32 = __prim_ctz x
}

module f32 : float with t = f32 with int_t = u32 = {
  type t = f32
  type int_t = u32
  def inf : t = 1f32 / 0f32
  def nan : t = 0f32 / 0f32
  def highest : t = inf
  def lowest : t = 0f32 - inf
  def i8 (x: i8) : t = __prim_to_f32 x
  def i16 (x: i16) : t = __prim_to_f32 x
  def i32 (x: i32) : t = __prim_to_f32 x
  def i64 (x: i64) : t = __prim_to_f32 x
  def u8 (x: u8) : t = __prim_to_f32 x
  def u16 (x: u16) : t = __prim_to_f32 x
  def u32 (x: u32) : t = __prim_to_f32 x
  def u64 (x: u64) : t = __prim_to_f32 x
  def f32 (x: f32) : t = __prim_to_f32 x
  def f64 (x: f64) : t = __prim_to_f32 x
  def bool (x: bool) : t = __prim_to_f32 x
  -- The bit-level functions come before this module's operators, which
  -- are defined on `t` alone, so they use the language's.
  def to_bits (x: t) : int_t = __prim_reinterpret_u32 x
  def from_bits (x: int_t) : t = __prim_reinterpret_f32 x
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((to_bits x >> __prim_to_u32 bit) & 1u32)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    from_bits ((to_bits x & (__prim_to_u32 (-1i32) ^ (1u32 << __prim_to_u32 bit)))
               | (__prim_to_u32 b << __prim_to_u32 bit))
  -- The neighbour of x towards y: one step of x's bits away from zero when
  -- y is further from zero on x's side, towards zero otherwise (NaN is the
  -- only value unequal to itself).
  def nextafter (x: t) (y: t) : t =
    if x != x || y != y then x + y
    else if x == y then y
    else if x == 0f32 then (if y > 0f32 then from_bits 1u32 else from_bits 2147483649u32)
    else if (x < y) == (x > 0f32) then from_bits (to_bits x + 1u32)
    else from_bits (to_bits x - 1u32)
  -- x * 2^n rounded once (to a subnormal, zero or infinity where it
  -- leaves the normal range): x times at most three powers of two of the
  -- normal range, of which only the last can round: a step down (by
  -- 2^-102) is exact unless the result is below half the least
  -- subnormal, where the last step rounds it to zero as it should.
  def ldexp (x: t) (n: i32) : t =
    let pow2 (k: i32) : t = from_bits (__prim_to_u32 (k + 127) << 23u32)
    let (y, k) =
      if n > 127 then
        let y = x * pow2 127
        let k = n - 127
        in if k > 127
           then (y * pow2 127, if k - 127 > 127 then 127 else k - 127)
           else (y, k)
      else if n < -126 then
        let y = x * pow2 (-102)
        let k = n + 102
        in if k < -126
           then (y * pow2 (-102), if k + 102 < -126 then -126 else k + 102)
           else (y, k)
      else (x, n)
    in y * pow2 k
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0f32 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0f32 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1f32 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def from_fraction (x: i64) (y: i64) : t = __prim_to_f32 x / __prim_to_f32 y
  def sqrt (x: t) : t = __prim_sqrt x
  def exp (x: t) : t = __prim_exp x
  def log (x: t) : t = __prim_log x
  def log2 (x: t) : t = __prim_log2 x
  def log10 (x: t) : t = __prim_log10 x
  def sin (x: t) : t = __prim_sin x
  def cos (x: t) : t = __prim_cos x
  def tan (x: t) : t = __prim_tan x
  def asin (x: t) : t = __prim_asin x
  def acos (x: t) : t = __prim_acos x
  def atan (x: t) : t = __prim_atan x
  def sinh (x: t) : t = __prim_sinh x
  def cosh (x: t) : t = __prim_cosh x
  def tanh (x: t) : t = __prim_tanh x
  def floor (x: t) : t = __prim_floor x
  def ceil (x: t) : t = __prim_ceil x
  def round (x: t) : t = __prim_round x
  def trunc (x: t) : t = __prim_trunc x
  def atan2 (y: t) (x: t) : t = __prim_atan2 y x
  def hypot (x: t) (y: t) : t = __prim_sqrt (x * x + y * y)
  def lerp (v0: t) (v1: t) (a: t) : t = v0 + (v1 - v0) * a
  def isinf (x: t) : bool = __prim_isinf x
  def isnan (x: t) : bool = __prim_isnan x
  def pi : t = 3.141592653589793f32
  def e : t = 2.718281828459045f32
  def epsilon : t = 1.1920929e-7f32
  def num_bits : i32 = 32
  def recip (x: t) : t = 1f32 / x
  def cbrt (x: t) : t = __prim_cbrt x
  def asinh (x: t) : t = __prim_asinh x
  def acosh (x: t) : t = __prim_acosh x
  def atanh (x: t) : t = __prim_atanh x
  def gamma (x: t) : t = __prim_gamma x
  def lgamma (x: t) : t = __prim_lgamma x
  def erf (x: t) : t = __prim_erf x
  def erfc (x: t) : t = __prim_erfc x
  def log1p (x: t) : t = __prim_log1p x
  def mad (a: t) (b: t) (c: t) : t = a * b + c
  def fma (a: t) (b: t) (c: t) : t = __prim_fma a b c
}

module f64 : float with t = f64 with int_t = u64 = {
  type t = f64
  type int_t = u64
  def inf : t = 1f64 / 0f64
  def nan : t = 0f64 / 0f64
  def highest : t = inf
  def lowest : t = 0f64 - inf
  def i8 (x: i8) : t = __prim_to_f64 x
  def i16 (x: i16) : t = __prim_to_f64 x
  def i32 (x: i32) : t = __prim_to_f64 x
  def i64 (x: i64) : t = __prim_to_f64 x
  def u8 (x: u8) : t = __prim_to_f64 x
  def u16 (x: u16) : t = __prim_to_f64 x
  def u32 (x: u32) : t = __prim_to_f64 x
  def u64 (x: u64) : t = __prim_to_f64 x
  def f32 (x: f32) : t = __prim_to_f64 x
  def f64 (x: f64) : t = __prim_to_f64 x
  def bool (x: bool) : t = __prim_to_f64 x
  -- The bit-level functions come before this module's operators, which
  -- are defined on `t` alone, so they use the language's.
  def to_bits (x: t) : int_t = __prim_reinterpret_u64 x
  def from_bits (x: int_t) : t = __prim_reinterpret_f64 x
  def get_bit (bit: i32) (x: t) : i32 = __prim_to_i32 ((to_bits x >> __prim_to_u64 bit) & 1u64)
  def set_bit (bit: i32) (x: t) (b: i32) : t =
    from_bits ((to_bits x & (__prim_to_u64 (-1i32) ^ (1u64 << __prim_to_u64 bit)))
               | (__prim_to_u64 b << __prim_to_u64 bit))
  -- The neighbour of x towards y: one step of x's bits away from zero when
  -- y is further from zero on x's side, towards zero otherwise (NaN is the
  -- only value unequal to itself).
  def nextafter (x: t) (y: t) : t =
    if x != x || y != y then x + y
    else if x == y then y
    else if x == 0f64 then (if y > 0f64 then from_bits 1u64 else from_bits 9223372036854775809u64)
    else if (x < y) == (x > 0f64) then from_bits (to_bits x + 1u64)
    else from_bits (to_bits x - 1u64)
  -- x * 2^n rounded once (to a subnormal, zero or infinity where it
  -- leaves the normal range): x times at most three powers of two of the
  -- normal range, of which only the last can round: a step down (by
  -- 2^-969) is exact unless the result is below half the least
  -- subnormal, where the last step rounds it to zero as it should.
  def ldexp (x: t) (n: i32) : t =
    let pow2 (k: i32) : t = from_bits (__prim_to_u64 (k + 1023) << 52u64)
    let (y, k) =
      if n > 1023 then
        let y = x * pow2 1023
        let k = n - 1023
        in if k > 1023
           then (y * pow2 1023, if k - 1023 > 1023 then 1023 else k - 1023)
           else (y, k)
      else if n < -1022 then
        let y = x * pow2 (-969)
        let k = n + 969
        in if k < -1022
           then (y * pow2 (-969), if k + 969 < -1022 then -1022 else k + 969)
           else (y, k)
      else (x, n)
    in y * pow2 k
  def (+) (x: t) (y: t) : t = x + y
  def (-) (x: t) (y: t) : t = x - y
  def (*) (x: t) (y: t) : t = x * y
  def (/) (x: t) (y: t) : t = x / y
  def (%) (x: t) (y: t) : t = x % y
  def (**) (x: t) (y: t) : t = x ** y
  def (==) (x: t) (y: t) : bool = x == y
  def (!=) (x: t) (y: t) : bool = x != y
  def (<) (x: t) (y: t) : bool = x < y
  def (>) (x: t) (y: t) : bool = x > y
  def (<=) (x: t) (y: t) : bool = x <= y
  def (>=) (x: t) (y: t) : bool = x >= y
  def neg (x: t) : t = 0f64 - x
  def abs (x: t) : t = __prim_abs x
  def sgn (x: t) : t = __prim_sgn x
  def max (x: t) (y: t) : t = __prim_max x y
  def min (x: t) (y: t) : t = __prim_min x y
  def to_i64 (x: t) : i64 = __prim_to_i64 x
  def to_f64 (x: t) : f64 = __prim_to_f64 x
  def sum [n] (xs: [n]t) : t = reduce (+) 0f64 xs
  def product [n] (xs: [n]t) : t = reduce (*) 1f64 xs
  def maximum [n] (xs: [n]t) : t = reduce max lowest xs
  def minimum [n] (xs: [n]t) : t = reduce min highest xs
  def from_fraction (x: i64) (y: i64) : t = __prim_to_f64 x / __prim_to_f64 y
  def sqrt (x: t) : t = __prim_sqrt x
  def exp (x: t) : t = __prim_exp x
  def log (x: t) : t = __prim_log x
  def log2 (x: t) : t = __prim_log2 x
  def log10 (x: t) : t = __prim_log10 x
  def sin (x: t) : t = __prim_sin x
  def cos (x: t) : t = __prim_cos x
  def tan (x: t) : t = __prim_tan x
  def asin (x: t) : t = __prim_asin x
  def acos (x: t) : t = __prim_acos x
  def atan (x: t) : t = __prim_atan x
  def sinh (x: t) : t = __prim_sinh x
  def cosh (x: t) : t = __prim_cosh x
  def tanh (x: t) : t = __prim_tanh x
  def floor (x: t) : t = __prim_floor x
  def ceil (x: t) : t = __prim_ceil x
  def round (x: t) : t = __prim_round x
  def trunc (x: t) : t = __prim_trunc x
  def atan2 (y: t) (x: t) : t = __prim_atan2 y x
  def hypot (x: t) (y: t) : t = __prim_sqrt (x * x + y * y)
  def lerp (v0: t) (v1: t) (a: t) : t = v0 + (v1 - v0) * a
  def isinf (x: t) : bool = __prim_isinf x
  def isnan (x: t) : bool = __prim_isnan x
  def pi : t = 3.141592653589793f64
  def e : t = 2.718281828459045f64
  def epsilon : t = 2.220446049250313e-16f64
  def num_bits : i32 = 64
  def recip (x: t) : t = 1f64 / x
  def cbrt (x: t) : t = __prim_cbrt x
  def asinh (x: t) : t = __prim_asinh x
  def acosh (x: t) : t = __prim_acosh x
  def atanh (x: t) : t = __prim_atanh x
  def gamma (x: t) : t = __prim_gamma x
  def lgamma (x: t) : t = __prim_lgamma x
  def erf (x: t) : t = __prim_erf x
  def erfc (x: t) : t = __prim_erfc x
  def log1p (x: t) : t = __prim_log1p x
  def mad (a: t) (b: t) (c: t) : t = a * b + c
  def fma (a: t) (b: t) (c: t) : t = __prim_fma a b c
}

module bool : from_prim with t = bool = {
  type t = bool
  def i8 (x: i8) : t = __prim_to_bool x
  def i16 (x: i16) : t = __prim_to_bool x
  def i32 (x: i32) : t = __prim_to_bool x
  def i64 (x: i64) : t = __prim_to_bool x
  def u8 (x: u8) : t = __prim_to_bool x
  def u16 (x: u16) : t = __prim_to_bool x
  def u32 (x: u32) : t = __prim_to_bool x
  def u64 (x: u64) : t = __prim_to_bool x
  def f32 (x: f32) : t = __prim_to_bool x
  def f64 (x: f64) : t = __prim_to_bool x
  def bool (x: bool) : t = __prim_to_bool x
}
