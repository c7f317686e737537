//! Helpers shared by the tests: running the binary and reading its output folder.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("runner/ sits in the repository")
        .to_owned()
}

/// The task and samples files of the fixture folder `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> (PathBuf, PathBuf) {
    let dir = repo().join("tests/fixtures").join(name);
    (dir.join("tasks.jsonl"), dir.join("samples.jsonl"))
}

/// A `wasmeval` command, checked to have its Python runtime.
pub fn wasmeval() -> Command {
    let home = wasmeval::cli::wasmeval_home();
    assert!(
        home.join("python/runtime.json").exists(),
        "the Python runtime is not installed in {}: run scripts/install-python-runtime (scripts/test does)",
        home.display()
    );
    Command::new(env!("CARGO_BIN_EXE_wasmeval"))
}

/// A `wasmeval run` command on a task and samples file into `out`, with `extra` flags.
pub fn run_command(tasks: &Path, samples: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut command = wasmeval();
    command
        .arg("run")
        .arg("--tasks")
        .arg(tasks)
        .arg("--samples")
        .arg(samples)
        .arg("--out")
        .arg(out)
        .args(extra);
    command
}

/// Runs `wasmeval run` (see [`run_command`]); panics on failure.
pub fn run(tasks: &Path, samples: &Path, out: &Path, extra: &[&str]) -> Output {
    let output = run_command(tasks, samples, out, extra)
        .output()
        .expect("wasmeval starts");
    assert!(
        output.status.success(),
        "wasmeval run failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The JSON lines of a file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("valid JSON line"))
        .collect()
}

/// The verdict of each case of a result, in order.
pub fn case_verdicts(result: &Value) -> Vec<&str> {
    result["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["verdict"].as_str().expect("a verdict"))
        .collect()
}

/// The results of a finished run, in sample order.
pub fn results(out: &Path) -> Vec<Value> {
    read_jsonl(&out.join("results.jsonl"))
}

/// The results of `wasmeval run --jobs 2` of `samples` against `tasks` (JSON records written as
/// the two JSON Lines files), in sample order.
pub fn run_records(tasks: &[Value], samples: &[Value]) -> Vec<Value> {
    let work = tempfile::tempdir().expect("a temporary folder");
    let lines = |values: &[Value]| values.iter().map(|v| format!("{v}\n")).collect::<String>();
    let (tasks_path, samples_path) = (
        work.path().join("tasks.jsonl"),
        work.path().join("samples.jsonl"),
    );
    std::fs::write(&tasks_path, lines(tasks)).expect("the tasks file");
    std::fs::write(&samples_path, lines(samples)).expect("the samples file");
    let out = work.path().join("out");
    run(&tasks_path, &samples_path, &out, &["--jobs", "2"]);
    results(&out)
}

/// The results of `wasmeval run` on the fixture `name` with `extra` arguments, in sample order
/// (the run's folder is removed).
pub fn fixture_results(name: &str, extra: &[&str]) -> Vec<Value> {
    let (tasks, samples) = fixture(name);
    let out = tempfile::tempdir().expect("a temporary folder");
    run(&tasks, &samples, out.path(), extra);
    results(out.path())
}

/// A program of a hostile corpus (`tests/hostile/<language>`) and what its header demands.
pub struct Hostile {
    /// Its file name.
    pub name: String,
    /// Its source.
    pub source: String,
    /// The verdict (or compile outcome) it must get; `a or b` accepts either.
    pub expect: String,
    /// Strings that must appear in no output, message or module.
    pub must_not_output: Vec<String>,
    /// Host paths the program tries to create, which must stay absent.
    pub host_paths_absent: Vec<String>,
}

/// The programs of `tests/hostile/<language>` with extension `ext`, whose headers are the leading
/// lines starting with `comment` (`# expect: ...`, `// why: ...`), sorted by name.
pub fn hostile_corpus(language: &str, ext: &str, comment: &str) -> Vec<Hostile> {
    let dir = repo().join("tests/hostile").join(language);
    let mut programs: Vec<Hostile> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .map(|path| {
            let source = std::fs::read_to_string(&path).expect("corpus program");
            let header = |key: &str| -> Vec<String> {
                source
                    .lines()
                    .take_while(|line| line.starts_with(comment))
                    .filter_map(|line| {
                        line.strip_prefix(&format!("{comment} {key}: "))
                            .map(|v| v.trim().to_owned())
                    })
                    .collect()
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expect = header("expect")
                .pop()
                .unwrap_or_else(|| panic!("{name} has no `expect:` header"));
            assert!(!header("why").is_empty(), "{name} has no `why:` header");
            Hostile {
                must_not_output: header("must-not-output"),
                host_paths_absent: header("host-path-absent"),
                name,
                source,
                expect,
            }
        })
        .collect();
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    programs
}

/// A running server, stopped (SIGTERM, then a kill) when dropped.
pub struct Server {
    /// The server's process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// `wasmeval serve` on the demo's tasks with `args`.
    pub fn start(args: &[&str]) -> Server {
        Server::start_with(&repo().join("demo/tasks.jsonl"), args)
    }

    /// `wasmeval serve` on `tasks` with `args`, once it says where it listens.
    pub fn start_with(tasks: &Path, args: &[&str]) -> Server {
        let mut child = wasmeval()
            .args(["serve", "--bind", "127.0.0.1:0", "--tasks"])
            .arg(tasks)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, address }
    }

    /// Sends a raw request; (status, headers, body).
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        send(&self.address, request)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = self
            .raw(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes());
        (status, body)
    }

    pub fn post(&self, path: &str, body: &str, extra: &str) -> (u16, String, String) {
        post(&self.address, path, body, extra)
    }

    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` to `address` and reads the whole response: (status, headers, body).
pub fn send(address: &str, request: &[u8]) -> (u16, String, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_owned(), body.to_owned())
}

/// POSTs `body` as JSON to `path`, with `extra` header lines; (status, headers, body).
pub fn post(address: &str, path: &str, body: &str, extra: &str) -> (u16, String, String) {
    send(
        address,
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}
