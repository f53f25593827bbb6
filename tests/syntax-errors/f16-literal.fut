def x = 1.5f16
