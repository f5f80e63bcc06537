print("glsnap")
