print("notify")
