# expect: timeout
# why: a finite but hours-long CPU loop (10**12 iterations) at import; the instruction budget must cut it off
def double(x):
    return 2 * x


# "warm-up" that would finish eventually, just not in any reasonable time
total = 0
for i in range(10 ** 6):
    for j in range(10 ** 6):
        total = (total + i * j) % 1000003
