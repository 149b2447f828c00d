print("hello-notify: not built yet")
