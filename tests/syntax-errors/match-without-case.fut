def main (x: i32) = match x
