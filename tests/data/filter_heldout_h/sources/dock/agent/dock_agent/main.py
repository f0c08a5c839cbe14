def run():
    print("dock agent")
