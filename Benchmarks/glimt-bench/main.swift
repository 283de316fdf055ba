print("glimt-bench")
