"""Small text helpers.

>>> slug("Hello World")
'hello-world'
"""


def slug(text):
    """
    >>> slug("  A  B ")
    'a-b'
    >>> slug("Crème brûlée")
    'creme-brulee'
    """
    import unicodedata

    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(text.lower().split())


def words(text):
    """
    >>> words('w')
    1
    >>> words('w w')
    2
    >>> words('w w w')
    3
    >>> words('w w w w')
    4
    >>> words('w w w w w')
    5
    >>> words('w w w w w w')
    6
    >>> words('w w w w w w w')
    7
    >>> words('w w w w w w w w')
    8
    >>> words('w w w w w w w w w')
    9
    >>> words('w w w w w w w w w w')
    10
    >>> words('w w w w w w w w w w w')
    11
    >>> words('w w w w w w w w w w w w')
    12
    >>> words('w w w w w w w w w w w w w')
    13
    >>> words('w w w w w w w w w w w w w w')
    14
    >>> words('w w w w w w w w w w w w w w w')
    15
    >>> words('w w w w w w w w w w w w w w w w')
    16
    >>> words('w w w w w w w w w w w w w w w w w')
    17
    >>> words('w w w w w w w w w w w w w w w w w w')
    18
    >>> words('w w w w w w w w w w w w w w w w w w w')
    19
    >>> words('w w w w w w w w w w w w w w w w w w w w')
    20
    >>> words('w w w w w w w w w w w w w w w w w w w w w')
    21
    >>> words('w w w w w w w w w w w w w w w w w w w w w w')
    22
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w')
    23
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w')
    24
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w')
    25
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w')
    26
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    27
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    28
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    29
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    30
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    31
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    32
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    33
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    34
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    35
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    36
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    37
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    38
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    39
    >>> words('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w')
    40
    """
    return len(text.split())


def initials(name):
    """
    >>> initials("ada lovelace")
    'AL'
    >>> initials("grace brewster murray hopper")
    'GBMH'
    >>> initials("")
    ''
    """
    return "".join(part[0].upper() for part in name.split(" ") if part)[:3]
