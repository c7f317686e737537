# expect: runtime_error
# why: plants symlinks in the scratch dir pointing at host files and reads through them; the sandbox must refuse to create or follow them
# must-not-output: root:x:0:0
import os


def double(x):
    return 2 * x


for name, target in (("abs_link", "/etc/passwd"), ("rel_link", "../../../../../../etc/passwd")):
    try:
        os.symlink(target, name)
    except OSError:
        pass

print(open("abs_link").read())
print(open("rel_link").read())
