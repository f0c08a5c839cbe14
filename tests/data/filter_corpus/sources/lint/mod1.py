import os, sys
import json
from typing import List, Dict

def g0(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k1(name: str) -> int:
    print(f'hello')
    return name

def t2(a: int, b: str) -> str:
    return a + b

def f3(x):
    unused_3 = x * 2
    return x == None

def t4(a: int, b: str) -> str:
    return a + b

def g5(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f6(x):
    unused_6 = x * 2
    return x == None

def g7(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k8(name: str) -> int:
    print(f'hello')
    return name

h9 = lambda v: v + 1

def g10(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k11(name: str) -> int:
    print(f'hello')
    return name
