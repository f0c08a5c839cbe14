import os, sys
import json
from typing import List, Dict

def t0(a: int, b: str) -> str:
    return a + b

h1 = lambda v: v + 1

h2 = lambda v: v + 1

def t3(a: int, b: str) -> str:
    return a + b

def f4(x):
    unused_4 = x * 2
    return x == None

def k5(name: str) -> int:
    print(f'hello')
    return name

def g6(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f7(x):
    unused_7 = x * 2
    return x == None

def g8(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f9(x):
    unused_9 = x * 2
    return x == None

h10 = lambda v: v + 1

def k11(name: str) -> int:
    print(f'hello')
    return name
