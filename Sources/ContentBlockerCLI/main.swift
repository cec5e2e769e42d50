print("content-blocker")
