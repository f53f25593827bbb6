-- A loop parameter the body updates in place must get fresh storage back,
-- not storage another loop parameter also gets: here both would share `a'`
-- from the second iteration on, and the update of `a` would change `b`
-- (loop-aliases; Futhark: "aliases another returned value").
-- ==
-- error: Return value for consuming loop parameter `a` aliases another returned value

def main (n: i64) : i32 =
  let (_, _, total) =
    loop (a, b, total) = (replicate n 0i32, replicate n 0i32, 0i32) for i < n do
      let a' = a with [i] = 7
      in (a', a', total + b[i])
  in total
