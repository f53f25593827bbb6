-- A character literal is an integer literal: the Unicode code point of its
-- character, of whatever numeric type inference gives it (`i32` by
-- default). A string literal is the array of its UTF-8 bytes, of type
-- `[n]u8`. Both take the escapes `\n \t \r \0 \\ \' \"`, `\xHH` and a
-- decimal code `\NNN` (SPEC_NOTES TFP18-33).
-- ==
-- input { 0i64 }
-- output { 97u8 955i32 10i64 39u32 [104u8, 105u8] true [206u8, 187u8]
--          0i64 [9u8, 34u8, 92u8, 65u8, 66u8, 0u8] 2i32 }

def classify (c: u8) : i32 =
  match c
  case 'a' -> 1
  case 'b' -> 2
  case _ -> 0

def main (i: i64) =
  let a : u8 = 'a'
  let lambda : i32 = 'λ'
  let newline = '\n' + i
  let quote : u32 = '\''
  let hi = "hi"
  let empty : []u8 = ""
  in ( a, lambda, newline, quote, hi, hi[1] == 'i', "λ", length empty + i
     , "\t\"\\\x41\66\0", classify (hi[0] - 6) )
