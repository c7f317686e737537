// expect: compile_error
// why: __has_include probes for the host's libstdc++ and glibc headers and for secrets, and a static_assert reports the result; only the sandbox's headers are on the search path. Landlock limits opening, not looking up, so an absolute probe can learn that a path exists, never its contents
// must-not-output: root:x:0:0
#if __has_include(<bits/c++config.h>) || __has_include(<x86_64-linux-gnu/bits/types.h>) || __has_include(<linux/limits.h>)
#error "the host's headers are on the search path"
#endif
#if !__has_include(<bits/stdc++.h>)
#error "wasmeval's bits/stdc++.h is missing"
#endif
static_assert(false, "probe finished");

int main() { return 0; }
