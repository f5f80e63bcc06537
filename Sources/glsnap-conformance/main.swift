print("glsnap-conformance")
