import os, sys
import json
from typing import List, Dict

def g0(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f1(x):
    unused_1 = x * 2
    return x == None

def g2(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def t3(a: int, b: str) -> str:
    return a + b

def t4(a: int, b: str) -> str:
    return a + b

def k5(name: str) -> int:
    print(f'hello')
    return name

def g6(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g7(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f8(x):
    unused_8 = x * 2
    return x == None

def f9(x):
    unused_9 = x * 2
    return x == None

def g10(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def g11(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}
