def x = 1q32
