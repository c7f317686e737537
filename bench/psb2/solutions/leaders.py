# PSB2 leaders: the numbers greater than or equal to every number to their right.
# stdin: one line, the vector's integers separated by spaces (empty line: empty vector).
# stdout: one line, the leaders in order, separated by spaces.
numbers = [int(n) for n in input().split()]
leaders = []
best = None
for n in reversed(numbers):
    if best is None or n >= best:
        leaders.append(n)
        best = n
print(" ".join(str(n) for n in reversed(leaders)))
