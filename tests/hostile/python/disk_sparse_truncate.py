# expect: output_limit
# why: grows a file to 1 TiB with truncate (sparse on the host, but a file that size fills any disk that copies it); the size counts against --disk
with open("/tmp/sparse", "wb") as f:
    f.truncate(1 << 40)


def double(x):
    return 2 * x
