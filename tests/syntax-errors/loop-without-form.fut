def main (x: i32) = loop acc = 0 do acc + x
