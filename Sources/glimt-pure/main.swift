print("glimt-pure")
