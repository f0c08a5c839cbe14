import os, sys
import json
from typing import List, Dict

h0 = lambda v: v + 1

def k1(name: str) -> int:
    print(f'hello')
    return name

def g2(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g3(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

h4 = lambda v: v + 1

def f5(x):
    unused_5 = x * 2
    return x == None

h6 = lambda v: v + 1

h7 = lambda v: v + 1

def t8(a: int, b: str) -> str:
    return a + b

def t9(a: int, b: str) -> str:
    return a + b

def f10(x):
    unused_10 = x * 2
    return x == None

def t11(a: int, b: str) -> str:
    return a + b
