def check(g): return g
