def t = (1,)
