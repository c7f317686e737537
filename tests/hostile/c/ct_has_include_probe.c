// expect: compile_error
// why: __has_include probes host paths and turns the answers into a compile error that spells them; the final #error is reached either way. Landlock limits opening files, not looking them up, so a probe may learn that a path exists (one bit per probe, as rustc's "file with the same name" hint); never what it contains, and host headers are not on the search path
// must-not-output: root:x:0:0
#if __has_include(<linux/limits.h>) || __has_include(<bits/libc-header-start.h>)
#error "the host's /usr/include is on the search path"
#endif
#if __has_include("/etc/passwd")
#define PASSWD "present"
#else
#define PASSWD "absent"
#endif
#error "probe finished"

int main(void) { return 0; }
