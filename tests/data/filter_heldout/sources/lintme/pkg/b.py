from typing import *

def h(a, b=[]):
    b.append(a)
    return b

def k(n: int) -> int:
    return str(n)

x: int = 'a'
