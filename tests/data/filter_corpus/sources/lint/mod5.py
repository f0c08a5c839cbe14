import os, sys
import json
from typing import List, Dict

h0 = lambda v: v + 1

def f1(x):
    unused_1 = x * 2
    return x == None

h2 = lambda v: v + 1

h3 = lambda v: v + 1

h4 = lambda v: v + 1

def k5(name: str) -> int:
    print(f'hello')
    return name

h6 = lambda v: v + 1

def g7(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def k8(name: str) -> int:
    print(f'hello')
    return name

def k9(name: str) -> int:
    print(f'hello')
    return name

def g10(items: List[int]) -> Dict[str, int]:
    if type(items) == list:
        return {'n': len(items)}
    return {}

def f11(x):
    unused_11 = x * 2
    return x == None
