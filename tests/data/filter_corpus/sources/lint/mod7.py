import os, sys
import json
from typing import List, Dict

def f0(x):
    unused_0 = x * 2
    return x == None

def g1(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def t2(a: int, b: str) -> str:
    return a + b

def g3(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f4(x):
    unused_4 = x * 2
    return x == None

def g5(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k6(name: str) -> int:
    print(f'hello')
    return name

h7 = lambda v: v + 1

def t8(a: int, b: str) -> str:
    return a + b

h9 = lambda v: v + 1

def t10(a: int, b: str) -> str:
    return a + b

h11 = lambda v: v + 1
