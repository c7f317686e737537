# PSB2 camel-case: kebab-case groups, separated by spaces, into camelCase.
# stdin: one line, the string (possibly empty). stdout: the converted string.
import sys

line = sys.stdin.readline().rstrip("\n")
groups = []
for group in line.split(" "):
    words = group.split("-")
    groups.append(words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]))
print(" ".join(groups))
