# expect: memory_limit
# why: keeps appending fresh 1 MiB buffers to a list forever; memory grows fast with few instructions, so the memory limit trips before fuel
def double(x):
    return 2 * x


hoard = []
chunk = b"A" * (1 << 20)
while True:
    hoard.append(bytearray(chunk))  # a new 1 MiB copy each time
