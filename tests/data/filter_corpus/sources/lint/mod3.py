import os, sys
import json
from typing import List, Dict

def g0(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g1(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

h2 = lambda v: v + 1

h3 = lambda v: v + 1

def g4(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def t5(a: int, b: str) -> str:
    return a + b

def g6(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g7(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g8(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k9(name: str) -> int:
    print(f'hello')
    return name

h10 = lambda v: v + 1

def f11(x):
    unused_11 = x * 2
    return x == None
