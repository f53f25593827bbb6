-- A sort written with the bit functions, as real programs use them: one
-- stable pass per bit, least significant first, each keeping the elements
-- whose bit is 0 before those whose bit is 1 (`u32.get_bit`); floats are
-- sorted through `f32.to_bits` with the usual order-preserving key (all
-- bits flipped for negatives, the sign bit for the rest) and read back
-- with `f32.from_bits`.
-- ==
-- entry: sort_u32
-- input { [5u32, 3u32, 9u32, 1u32, 4000000000u32, 3u32] }
-- output { [1u32, 3u32, 3u32, 5u32, 9u32, 4000000000u32] }
-- input { empty([0]u32) } output { empty([0]u32) }
-- ==
-- entry: sort_f32
-- input { [2.5f32, -1f32, 0f32, -7.25f32, 100f32] }
-- output { [-7.25f32, -1f32, 0f32, 2.5f32, 100f32] }

def by_bit [n] (b: i32) (keys: [n]u32) : [n]u32 =
  let zeros = filter (\k -> u32.get_bit b k == 0) keys
  let ones = filter (\k -> u32.get_bit b k == 1) keys
  in (zeros ++ ones) :> [n]u32

def sort_keys [n] (keys: [n]u32) : [n]u32 =
  loop keys for b < 32 do by_bit b keys

entry sort_u32 [n] (xs: [n]u32) : [n]u32 = sort_keys xs

def key (x: f32) : u32 =
  let bits = f32.to_bits x
  in if u32.get_bit 31 bits == 1 then u32.not bits else u32.set_bit 31 bits 1

def unkey (k: u32) : f32 =
  if u32.get_bit 31 k == 1 then f32.from_bits (u32.set_bit 31 k 0) else f32.from_bits (u32.not k)

entry sort_f32 [n] (xs: [n]f32) : [n]f32 = map unkey (sort_keys (map key xs))
