print("rowserver")
