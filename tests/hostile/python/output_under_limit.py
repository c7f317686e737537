# expect: passed
# why: control: about 512 KiB of output, well under the 1 MiB cap, with a correct solution must still pass
def double(x):
    return 2 * x


for i in range(8192):
    print("%06d " % i + "." * 56)  # 64 bytes per line -> 512 KiB
