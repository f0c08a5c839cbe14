import os, sys
import json

def f(x):
    if x == None:
        return []
    l = [1]
    return l

def g(y: int) -> str:
    return y
