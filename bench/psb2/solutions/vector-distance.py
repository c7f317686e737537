# PSB2 vector-distance: the Euclidean distance between two vectors of floats.
# stdin: two lines, each vector's numbers separated by spaces. stdout: the distance (a float,
# compared with epsilon).
import math

a = [float(x) for x in input().split()]
b = [float(x) for x in input().split()]
print(math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))))
