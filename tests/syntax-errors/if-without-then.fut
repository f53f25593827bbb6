def main (b: bool) = if b 1 else 2
