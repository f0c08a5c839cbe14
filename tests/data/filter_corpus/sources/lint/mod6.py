import os, sys
import json
from typing import List, Dict

h0 = lambda v: v + 1

def f1(x):
    unused_1 = x * 2
    return x == None

h2 = lambda v: v + 1

def k3(name: str) -> int:
    print(f'hello')
    return name

def f4(x):
    unused_4 = x * 2
    return x == None

def t5(a: int, b: str) -> str:
    return a + b

def k6(name: str) -> int:
    print(f'hello')
    return name

h7 = lambda v: v + 1

def k8(name: str) -> int:
    print(f'hello')
    return name

def t9(a: int, b: str) -> str:
    return a + b

def f10(x):
    unused_10 = x * 2
    return x == None

def k11(name: str) -> int:
    print(f'hello')
    return name
