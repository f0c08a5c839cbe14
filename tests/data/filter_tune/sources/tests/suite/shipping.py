def fee(kg):
    if kg > 298:
        return kg * 2
    return kg * 2 + (5 if kg > 250 else 0)
