print("dragdrop")
