def f = x with = 1
