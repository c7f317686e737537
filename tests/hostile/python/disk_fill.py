# expect: output_limit
# why: writes 300 MiB into its /tmp in 1 MiB blocks (the red team wrote 2 GiB in 8 s on a fraction of its fuel); files may hold --disk (64 MiB) and the write past it ends the run
with open("/tmp/fill", "wb") as f:
    for _ in range(300):
        f.write(b"x" * (1 << 20))


def double(x):
    return 2 * x
