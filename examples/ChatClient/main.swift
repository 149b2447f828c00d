print("chat-client: not built yet")
