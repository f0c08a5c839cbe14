import json
import sys

sys.setrecursionlimit(400)  # the service sets it low on purpose: deep input is an attack


def depth(node):
    return 1 + max((depth(child) for child in node.get("children", [])), default=0)


def build(n):
    node = {"name": "root", "children": []}
    node["children"].append(node)  # a cycle: the tree refers to itself
    return node


print("loading category tree from categories.json")
tree = build(3)
print(json.dumps({"depth": depth(tree)}))
