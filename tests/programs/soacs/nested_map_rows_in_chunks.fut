-- An outer map over the rows of a 2-D result whose lambda holds an inner
-- map (nested work): from 16 rows it runs in parallel, in chunks of a few
-- rows (`cpu::compile::map_ranges`). Every element is distinct, so a row
-- written at the wrong place shows; two rows fail with different errors
-- (`zero_row` divides by zero, `bad_row` indexes out of bounds), and the
-- first failing element in element order is the one reported, whichever
-- chunk finishes first.
-- ==
-- input { 20i64 3i64 -1i64 -1i64 }
-- output { [[105i64, 116i64, 127i64], [1055i64, 1066i64, 1077i64], [2038i64, 2049i64, 2060i64], [3030i64, 3041i64, 3052i64],
--           [4025i64, 4036i64, 4047i64], [5021i64, 5032i64, 5043i64], [6019i64, 6030i64, 6041i64], [7017i64, 7028i64, 7039i64],
--           [8016i64, 8027i64, 8038i64], [9015i64, 9026i64, 9037i64], [10014i64, 10025i64, 10036i64], [11013i64, 11024i64, 11035i64],
--           [12012i64, 12023i64, 12034i64], [13012i64, 13023i64, 13034i64], [14011i64, 14022i64, 14033i64], [15011i64, 15022i64, 15033i64],
--           [16010i64, 16021i64, 16032i64], [17010i64, 17021i64, 17032i64], [18010i64, 18021i64, 18032i64], [19010i64, 19021i64, 19032i64]] }
-- input { 20i64 3i64 12i64 15i64 } error: division by zero
-- input { 20i64 3i64 15i64 12i64 } error: out of bounds
-- input { 20i64 3i64 19i64 0i64 } error: out of bounds
-- input { 2i64 3i64 -1i64 -1i64 } output { [[105i64, 116i64, 127i64], [1055i64, 1066i64, 1077i64]] }

def main (n: i64) (m: i64) (zero_row: i64) (bad_row: i64) : [n][m]i64 =
  let t = [5i64, 6, 7]
  in map (\i ->
            map (\j ->
                   let g = if i == bad_row then t[j + 3] else t[j % 3]
                   in i * 1000 + j * 10 + g + 100 / (i - zero_row))
                (iota m))
         (iota n)
