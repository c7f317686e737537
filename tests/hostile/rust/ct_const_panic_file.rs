// expect: compile_error
// why: a const panic whose message is a host file's contents would print the file in the compile error; the include fails first
// must-not-output: root:x:0:0
// must-not-output: /bin/bash
const PASSWD: &str = include_str!("../../../../../../../../../etc/passwd");
const _: () = panic!("{}", PASSWD);

fn main() {}
