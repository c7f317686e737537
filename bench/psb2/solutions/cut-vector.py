# PSB2 cut-vector: cut a vector where the sums of both sides differ the least.
# stdin: one line, the integers separated by spaces. stdout: two lines, the left and the right part
# (the right part may be an empty line).
numbers = [int(n) for n in input().split()]
total = sum(numbers)
best, cut, left = None, len(numbers), 0
for i in range(1, len(numbers) + 1):
    left += numbers[i - 1]
    difference = abs(total - 2 * left)
    if best is None or difference < best:
        best, cut = difference, i
print(" ".join(map(str, numbers[:cut])))
print(" ".join(map(str, numbers[cut:])))
