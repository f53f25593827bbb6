-- The `real` and `float` functions of Futhark's prelude beyond the
-- elementary ones: `recip`, `cbrt`, the inverse hyperbolic functions,
-- `gamma`, `lgamma` (the logarithm of |Γ|), `erf`, `erfc`, `log1p`, `mad`,
-- and the bit-level view of a float: `to_bits`/`from_bits` (to and from
-- `int_t`, the unsigned type of the same width), `get_bit`, `set_bit` and
-- `nextafter`.
-- ==
-- entry: special
-- input { 0.5f64 4.5f64 }
-- output { 2.0f64 3.0f64 0.881373587019543f64 1.3169578969248166f64 0.5493061443340548f64
--          11.631728396567446f64 -0.05624371649767457f64 0.5204998778130465f64
--          0.4795001221869535f64 9.999999999500001e-11f64 3.25f64 }
-- ==
-- entry: special_f32
-- input { 0.5f32 4.5f32 }
-- output { 0.5204999f32 11.631728f32 0.47950011f32 2.0f32 }
-- ==
-- entry: bits
-- input { 1f32 -2f32 1f64 }
-- output { 1065353216u32 3221225472u32 4607182418800017408u64 1.0000001f32 1 0
--          -1f32 1.0000001f32 0.99999994f32 -4.9406564584124654e-324f64 1.0f64 }
-- ==
-- entry: bits_in_a_map
-- input { [1f32, -2f32, 0f32] }
-- output { [1065353216u32, 3221225472u32, 0u32] [0, 1, 0] }
-- ==
-- entry: f64_bits_in_a_map
-- input { [1f64, -2f64, 0f64] }
-- output { [4607182418800017408u64, 13835058055282163712u64, 0u64] [-1f64, 2f64, -0f64] }

entry special (x: f64) (y: f64) =
  ( f64.recip x
  , f64.cbrt 27f64
  , f64.asinh 1f64
  , f64.acosh 2f64
  , f64.atanh x
  , f64.gamma y
  , f64.lgamma (-2.5f64)
  , f64.erf x
  , f64.erfc x
  , f64.log1p 1e-10f64
  , f64.mad x y 1f64 )

entry special_f32 (x: f32) (y: f32) =
  (f32.erf x, f32.gamma y, f32.erfc x, f32.recip x)

entry bits (a: f32) (b: f32) (c: f64) =
  ( f32.to_bits a
  , f32.to_bits b
  , f64.to_bits c
  , f32.from_bits 1065353217u32
  , f32.get_bit 31 b
  , f32.get_bit 31 a
  , f32.set_bit 31 a 1
  , f32.nextafter a 2f32
  , f32.nextafter a 0f32
  , f64.nextafter 0f64 (-1f64)
  , f64.nextafter c c )

entry bits_in_a_map (xs: []f32) =
  (map f32.to_bits xs, map (f32.get_bit 31) xs)

entry f64_bits_in_a_map (xs: []f64) =
  let bits = map f64.to_bits xs
  in (bits, map (\b -> f64.from_bits (b ^ 9223372036854775808u64)) bits)
