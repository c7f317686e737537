# PSB2 middle-character: the middle character, or the middle two of an even-length string.
# stdin: one line, the string as is (spaces count). stdout: the middle; compared exactly.
import sys

s = sys.stdin.readline().rstrip("\n")
half = len(s) // 2
print(s[half] if len(s) % 2 else s[half - 1:half + 1])
