//! `wasmeval serve`, as a real server on an ephemeral loopback port: the API's answers, the
//! bounds a hostile client meets (429, 413, 400 with the JSON path, 401; SandboxFusion's routes
//! wait, then 504 or 503), the static files kept inside the site, and SIGTERM draining to exit 0.

use crate::support::{post, repo, wasmeval, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The demo's first task (demo/0), whose reference solution passes.
fn first_demo_task() -> Value {
    let tasks = std::fs::read_to_string(repo().join("demo/tasks.jsonl")).unwrap();
    serde_json::from_str(tasks.lines().next().unwrap()).unwrap()
}

fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[test]
fn the_api_evaluates_samples_as_run_does_and_limits_only_go_down() {
    let mut server = Server::start(&["--jobs", "2", "--fuel", "2000000000"]);
    let (status, body) = server.get("/api/v1/health");
    assert_eq!(status, 200, "{body}");
    let health = json_of(&body);
    assert_eq!(health["status"], "ok");
    assert!(health["languages"]
        .as_array()
        .unwrap()
        .contains(&json!("python")));
    assert_eq!(health["limits"]["fuel"], 2_000_000_000u64);
    assert_eq!(health["queue"]["capacity"], 8);
    assert_eq!(health["queue"]["wait_capacity"], 256);

    let (status, body) = server.get("/api/v1/tasks?per_page=5&page=2");
    assert_eq!(status, 200);
    let page = json_of(&body);
    assert_eq!(page["total"], 42);
    assert_eq!(page["tasks"].as_array().unwrap().len(), 5);
    let (_, body) = server.get("/api/v1/tasks?where=topic%3Drecursion");
    assert!(json_of(&body)["total"].as_u64().unwrap() < 42);
    let (status, body) = server.get("/api/v1/tasks/demo%2F0");
    assert_eq!(status, 200, "{body}");
    assert_eq!(json_of(&body)["id"], "demo/0");
    // Every refusal is JSON naming what to send instead.
    let refusal = |(status, body): (u16, String)| (status, json_of(&body)["error"].clone());
    assert_eq!(
        refusal(server.get("/api/v1/tasks/nope")),
        (
            404,
            json!("no task `nope` on this server (GET /api/v1/tasks lists them)")
        )
    );
    let (status, error) = refusal(server.get("/api/v1/tasks?where=colour%3Dred"));
    assert_eq!(status, 400);
    assert!(
        error
            .as_str()
            .unwrap()
            .starts_with("`where`: unknown query field `colour`; fields are: source, topic"),
        "{error}"
    );
    let (status, error) = refusal(server.get("/api/v1/tasks?page=two"));
    assert_eq!(status, 400);
    assert!(error.as_str().unwrap().contains("page"), "{error}");
    let both = json!({"task_id": "demo/0", "completion": "x", "solution": "x"});
    let (status, _, body) = server.post("/api/v1/evaluate", &both.to_string(), "");
    assert_eq!(
        refusal((status, body)),
        (
            400,
            json!("give exactly one of `completion` and `solution`")
        )
    );
    let java = json!({"task": {"id": "j/1", "language": "java", "prompt": "", "tests": []}, "solution": "class A {}"});
    let (status, _, body) = server.post("/api/v1/evaluate", &java.to_string(), "");
    assert_eq!(
        refusal((status, body)),
        (422, json!("this server cannot run java samples"))
    );

    // The demo's reference solution passes; an endless loop is a fuel timeout within the lower
    // fuel it asked for; asking for more than the server allows gets the server's maximum.
    let task = first_demo_task();
    let reference = task["references"][0]["code"].as_str().unwrap();
    let (status, _, body) = server.post(
        "/api/v1/evaluate",
        &json!({"task_id": "demo/0", "solution": reference}).to_string(),
        "",
    );
    assert_eq!(status, 200, "{body}");
    let result = json_of(&body);
    assert_eq!(result["verdict"], "passed", "{result}");
    assert_eq!(result["task_id"], "demo/0");
    let endless = format!("{reference}\nwhile True:\n    pass\n");
    for (asked, used_at_most) in [(300_000_000u64, 300_000_000u64), (u64::MAX, 2_000_000_000)] {
        let (status, _, body) = server.post(
            "/api/v1/evaluate",
            &json!({"task_id": "demo/0", "solution": endless, "limits": {"fuel": asked}})
                .to_string(),
            "",
        );
        assert_eq!(status, 200, "{body}");
        let result = json_of(&body);
        assert_eq!(result["verdict"], "timeout", "{result}");
        // The judge and the partner interpreter each have the budget (ARCHITECTURE.md): the sum
        // reported is at most twice it.
        let fuel = result["fuel"].as_u64().unwrap();
        assert!(
            fuel <= 2 * used_at_most && fuel > used_at_most / 2,
            "{fuel}"
        );
    }
    // An inline task in wasmeval's format.
    let inline = json!({"task": {"id": "t/1", "prompt": "", "tests": [{"kind": "io", "cases": [{"name": "a", "stdin": "", "stdout": "hi\n"}]}]}, "solution": "print('hi')"});
    let (status, _, body) = server.post("/api/v1/evaluate", &inline.to_string(), "");
    assert_eq!(
        (status, json_of(&body)["verdict"].clone()),
        (200, json!("passed"))
    );
    assert!(server.terminate().success());
}

#[test]
fn hostile_clients_get_400_413_429_and_401_and_the_server_keeps_serving() {
    // Slow jobs take seconds (6e10 fuel), so that two are certainly in at once on a busy machine.
    let server = Server::start(&[
        "--jobs",
        "1",
        "--queue",
        "1",
        "--max-body",
        "4KiB",
        "--fuel",
        "60000000000",
    ]);
    // A malformed body names the JSON path at fault.
    let (status, _, body) = server.post(
        "/api/v1/evaluate",
        r#"{"task_id": "demo/0", "solution": "x", "limits": {"fuel": "lots"}}"#,
        "",
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(json_of(&body)["path"], "limits.fuel");
    let (status, _, body) = server.post("/api/v1/evaluate", r#"{"solution": "x"}"#, "");
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        json_of(&body)["error"],
        "give exactly one of `task_id` and `task`"
    );
    // Over --max-body: JSON too, naming the flag and the way to send more.
    let big = json!({"task_id": "demo/0", "solution": "#".repeat(8192)}).to_string();
    let (status, _, body) = server.post("/api/v1/evaluate", &big, "");
    assert_eq!(status, 413, "{body}");
    assert_eq!(
        json_of(&body)["error"],
        "the body is over --max-body (4096 bytes); POST /api/v1/evaluate/batch takes many \
         requests, one a line"
    );
    // One worker, one queued: a third request at once is refused with Retry-After.
    let slow = json!({"task_id": "demo/0", "solution": "while True:\n    pass\n", "limits": {"fuel": 60000000000u64}}).to_string();
    let address = server.address.clone();
    // Not joined: their answers come after the server is stopped, at the end.
    let (done, answers) = std::sync::mpsc::channel();
    for _ in 0..2 {
        let (address, slow, done) = (address.clone(), slow.clone(), done.clone());
        std::thread::spawn(move || {
            let _ = done.send(post(&address, "/api/v1/evaluate", &slow, ""));
        });
    }
    // Once both are in (one running, one queued), as the server itself reports.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    loop {
        let depth = json_of(&server.get("/api/v1/health").1)["queue"]["depth"].clone();
        if depth == 2 {
            break;
        }
        seen.push(depth);
        assert!(
            std::time::Instant::now() < deadline,
            "the two requests never got in: depth {:?}; answered: {:?}",
            &seen[..seen.len().min(20)],
            answers
                .try_iter()
                .map(|(status, ..)| status)
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, head, _) = server.post("/api/v1/evaluate", &slow, "");
    assert_eq!(status, 429);
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 1"),
        "{head}"
    );
    // The site's files stay inside the site: `..` and encoded slashes find nothing.
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/..%2fCargo.toml",
        "/%2e%2e%2fREADME.md",
    ] {
        let (status, body) = server.get(path);
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert!(!body.contains("[workspace]"), "{path}");
    }
    assert_eq!(server.get("/api/v1/health").0, 200);
}

#[test]
fn a_token_guards_the_api_and_leaving_loopback_needs_one() {
    let server = Server::start(&["--token", "s3cret"]);
    let (status, body) = server.get("/api/v1/health");
    assert_eq!(status, 401);
    assert_eq!(
        json_of(&body)["error"],
        "this server needs `Authorization: Bearer <token>`"
    );
    let (status, _, _) = server.raw(
        b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    let output = wasmeval()
        .args(["serve", "--bind", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--token"));
}

#[test]
fn sandbox_fusions_own_client_runs_every_language_and_submits_unchanged() {
    let python = wasmeval::cli::wasmeval_home().join("venvs/sandbox-fusion/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/install-test-clients (scripts/test does)",
        python.display()
    );
    let server = Server::start(&["--jobs", "2"]);
    let task = first_demo_task();
    let output = std::process::Command::new(&python)
        .arg(repo().join("tests/fixtures/serve/sandbox_fusion_client.py"))
        .arg(format!("http://{}", server.address))
        .arg(task["references"][0]["code"].as_str().unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("all checks passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The body of a chunked HTTP response, de-chunked.
fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || after.len() < size {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

#[test]
fn a_batch_streams_one_line_per_request_and_names_the_bad_ones() {
    let server = Server::start(&["--jobs", "2"]);
    let task = first_demo_task();
    let reference = task["references"][0]["code"].as_str().unwrap();
    let mut body = String::new();
    for i in 0..6 {
        let line = match i {
            2 => r#"{"task_id": "demo/0", "solution": 1}"#.to_owned(),
            4 => json!({"task_id": "demo/0", "solution": "def nothing(): pass"}).to_string(),
            _ => json!({"task_id": "demo/0", "solution": reference}).to_string(),
        };
        body.push_str(&line);
        body.push('\n');
    }
    let (status, head, raw) = server.post("/api/v1/evaluate/batch", &body, "");
    assert_eq!(status, 200, "{head}");
    let text = if head.to_ascii_lowercase().contains("chunked") {
        dechunk(&raw)
    } else {
        raw
    };
    let mut lines: Vec<Value> = text.lines().map(json_of).collect();
    assert_eq!(lines.len(), 6, "{text}");
    lines.sort_by_key(|l| l.get("index").or(l.get("line")).and_then(Value::as_u64));
    for (i, line) in lines.iter().enumerate() {
        match i {
            2 => {
                assert_eq!(line["line"], 2, "{line}");
                assert_eq!(line["path"], "solution", "{line}");
            }
            4 => assert_ne!(line["verdict"], "passed", "{line}"),
            _ => {
                assert_eq!(line["index"], i as u64, "{line}");
                assert_eq!(line["verdict"], "passed", "{line}");
            }
        }
    }
}

#[test]
fn the_hostile_corpora_get_the_verdicts_their_headers_expect_through_the_api_too() {
    // Every (language, test kind) pair that `run` is checked against in hostile.rs, sent as one
    // batch through the server with the limits those headers assume.
    let work = tempfile::tempdir().unwrap();
    let corpora = crate::hostile::every_corpus();
    let mut args: Vec<String> = [
        "--memory",
        "256MiB",
        "--output-limit",
        "1MiB",
        "--fuel",
        "4000000000",
        "--timeout",
        "60s",
        "--max-body",
        "16MiB",
    ]
    .map(String::from)
    .to_vec();
    let mut lines = String::new();
    let mut expected = std::collections::BTreeMap::new();
    for (language, task_file, programs) in &corpora {
        let task: Value = serde_json::from_str(
            &std::fs::read_to_string(repo().join("tests/hostile").join(language).join(task_file))
                .unwrap(),
        )
        .unwrap();
        let tasks = work.path().join(format!("{language}-{task_file}l"));
        std::fs::write(&tasks, format!("{task}\n")).unwrap();
        args.extend(["--tasks".into(), tasks.display().to_string()]);
        let task_id = task.get("task_id").unwrap_or(&task["id"]).clone();
        for program in programs {
            let name = format!("{language}/{task_file}/{}", program.name);
            lines.push_str(&format!(
                "{}\n",
                json!({"task_id": task_id, "solution": program.source, "model": name})
            ));
            expected.insert(name, program.expect.clone());
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = Server::start(&args);
    let (status, _, body) = server.post("/api/v1/evaluate/batch", &lines, "");
    assert_eq!(status, 200, "{body}");
    let mut failures = Vec::new();
    let mut answered = 0;
    for line in dechunk(&body).lines().filter(|l| !l.trim().is_empty()) {
        let result = json_of(line);
        let name = result["model"].as_str().unwrap_or_else(|| panic!("{line}"));
        let verdict = result["verdict"].as_str().unwrap();
        answered += 1;
        if expected.get(name).map(String::as_str) != Some(verdict) {
            failures.push(format!(
                "{name}: expected {:?}, got {verdict} ({})",
                expected.get(name),
                result["message"]
            ));
        }
    }
    assert_eq!(answered, expected.len(), "every program gets one answer");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_link_in_the_site_folder_does_not_lead_out_of_it() {
    let work = tempfile::tempdir().unwrap();
    let site = work.path().join("site");
    std::fs::create_dir(&site).unwrap();
    for file in [
        "index.html",
        "style.css",
        "wasmeval_web.js",
        "wasmeval_web_bg.wasm",
    ] {
        std::fs::write(site.join(file), "site file").unwrap();
    }
    let secret = work.path().join("secret.txt");
    std::fs::write(&secret, "outside the site").unwrap();
    std::os::unix::fs::symlink(&secret, site.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(work.path(), site.join("up")).unwrap();
    std::os::unix::fs::symlink(site.join("style.css"), site.join("inside.css")).unwrap();
    let server = Server::start(&["--site-assets", site.to_str().unwrap()]);
    assert_eq!(server.get("/index.html"), (200, "site file".into()));
    // A link that stays inside is fine; one that leads out finds nothing, however it is spelt.
    assert_eq!(server.get("/inside.css").0, 200);
    for path in [
        "/leak.txt",
        "/up/secret.txt",
        "/%6ceak.txt",
        "/up%2fsecret.txt",
    ] {
        let (status, body) = server.get(path);
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert!(!body.contains("outside the site"), "{path}: {body}");
    }
}

#[test]
fn regression_a_guests_symlinks_never_hand_out_host_files() {
    // Issue 32: `fetch_files` named a path through a link the guest made (`up/etc/passwd`),
    // and the server read the host's file.
    let server = Server::start(&[]);
    // Absolute targets are refused inside the sandbox; relative ones are made.
    let program = "import os\n\
        def link(target, name):\n    try:\n        os.symlink(target, name)\n    except OSError:\n        pass\n\
        link('../' * 30, 'up')\n\
        link('/etc', 'abs')\n\
        link('/proc/self/environ', 'env')\n\
        link('up', 'chain')\n\
        open('answer.txt', 'w').write('42')\n\
        os.mkdir('sub')\n\
        open('sub/x.txt', 'w').write('x' * 1000)\n";
    let request = json!({
        "code": program,
        "language": "python",
        "fetch_files": ["up/etc/passwd", "abs/passwd", "env", "chain/etc/hostname",
            "/tmp/up/proc/self/environ", "answer.txt", "sub/x.txt", "sub/x.txt", "sub/x.txt"],
    });
    let (status, _, body) = server.post("/run_code", &request.to_string(), "");
    assert_eq!(status, 200, "{body}");
    let answer = json_of(&body);
    assert_eq!(answer["status"], "Success", "{answer}");
    let files = answer["files"].as_object().unwrap();
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(names, ["answer.txt", "sub/x.txt"], "{answer}");
    assert!(!body.contains("root:"), "{body}");
}

#[test]
fn the_bundle_needs_the_token_and_a_memory_limit_too_small_to_start_is_the_requests_fault() {
    let results = repo().join("tests/fixtures/report");
    let assets = repo().join("tests/fixtures/report/site-assets");
    let (results, assets) = (results.to_str().unwrap(), assets.to_str().unwrap());
    let server = Server::start(&[
        "--results",
        results,
        "--site-assets",
        assets,
        "--token",
        "s3cret",
    ]);
    // Issue 32: the bundle carries every task's tests and expected values.
    assert_eq!(server.get("/bundle.json").0, 401);
    let (status, _, body) = server.raw(
        b"GET /bundle.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    assert!(
        body.contains("\"tasks\""),
        "{}",
        &body[..body.len().min(200)]
    );
    // The site's own files hold no data and stay public.
    assert_eq!(server.get("/").0, 200);
    // A memory limit the interpreter cannot start in: 400, not 500.
    let request = json!({"task_id": "demo/0", "solution": "print(1)", "limits": {"memory": 1}});
    let (status, _, body) = server.post(
        "/api/v1/evaluate",
        &request.to_string(),
        "Authorization: Bearer s3cret\r\n",
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        json_of(&body)["error"]
            .as_str()
            .unwrap()
            .contains("memory limit"),
        "{body}"
    );
}

#[test]
fn regression_deeply_nested_typescript_does_not_kill_the_server() {
    // Issue 32: one `/run_code` request of 100,000 nested brackets overflowed the server's stack.
    let server = Server::start(&[]);
    let code = format!(
        "let x = {}1{};\nconsole.log(x);\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let request = json!({"code": code, "language": "typescript"});
    let (status, _, body) = server.post("/run_code", &request.to_string(), "");
    assert_eq!(status, 200, "{}", &body[..body.len().min(300)]);
    let answer = json_of(&body);
    // SandboxFusion runs TypeScript with tsx: a program that does not parse is a run that
    // exited 1, with no compile step.
    assert_eq!(answer["status"], "Failed", "{answer}");
    assert_eq!(answer["compile_result"], Value::Null, "{answer}");
    assert_eq!(answer["run_result"]["status"], "Finished", "{answer}");
    assert_eq!(answer["run_result"]["return_code"], 1, "{answer}");
    let request = json!({"code": "console.log(1 as number);", "language": "typescript"});
    let (status, _, body) = server.post("/run_code", &request.to_string(), "");
    assert_eq!(status, 200);
    assert_eq!(json_of(&body)["run_result"]["stdout"], "1\n", "{body}");
}

#[test]
fn regression_two_thousand_idle_connections_do_not_stop_the_server() {
    // Issue 32: 1,100 half-open requests under `ulimit -n 1024` stopped `serve` from answering.
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    // Started first: the server inherits this process's descriptor limit (1024 soft, commonly)
    // and must raise its own.
    let server = Server::start(&[]);
    let limit = getrlimit(Resource::Nofile);
    let soft = limit.maximum.unwrap_or(1 << 20).min(1 << 16);
    // This test's own process needs the descriptors for its side of the connections.
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(soft),
            maximum: limit.maximum,
        },
    );
    let mut idle = Vec::new();
    for i in 0..2000 {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        // Every other one stops half-way through its headers.
        if i % 2 == 1 {
            stream
                .write_all(b"GET /api/v1/health HTTP/1.1\r\nHost:")
                .unwrap();
        }
        idle.push(stream);
    }
    let (status, body) = server.get("/api/v1/health");
    assert_eq!(status, 200, "{body}");
    // The server closes each one that sent no whole header in time (10 s).
    for stream in [&idle[0], &idle[1], &idle[1998], &idle[1999]] {
        let mut stream = stream.try_clone().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut buffer = [0u8; 256];
        let read = stream.read(&mut buffer);
        assert!(
            matches!(read, Ok(0))
                || read
                    .as_ref()
                    .is_ok_and(|n| buffer[..*n].starts_with(b"HTTP/1.1 408")),
            "an idle connection was not closed: {read:?}"
        );
    }
    assert_eq!(server.get("/api/v1/health").0, 200);
}

/// Posts each of `bodies` to `path` at once, one thread each: (status, body, seconds) in order.
fn post_all(address: &str, path: &str, bodies: Vec<String>) -> Vec<(u16, String, f64)> {
    let threads: Vec<_> = bodies
        .into_iter()
        .map(|body| {
            let (address, path) = (address.to_owned(), path.to_owned());
            std::thread::spawn(move || {
                let started = std::time::Instant::now();
                let (status, _, body) = post(&address, &path, &body, "");
                (status, body, started.elapsed().as_secs_f64())
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn regression_sandbox_fusions_clients_wait_for_a_worker_instead_of_getting_429() {
    // Issue 34: verl sends 64 requests at once and retries only 504; with a queue of 4 x jobs,
    // 126 of 160 got 429 and scored zero.
    let server = Server::start(&["--jobs", "1"]);
    let bodies = (0..64)
        .map(|i| {
            json!({"code": "print(int(input()) * 2)", "language": "python", "stdin": i.to_string()})
                .to_string()
        })
        .collect();
    let answers = post_all(&server.address, "/run_code", bodies);
    for (i, (status, body, _)) in answers.iter().enumerate() {
        assert_eq!(*status, 200, "{i}: {body}");
        let answer = json_of(body);
        assert_eq!(answer["status"], "Success", "{i}: {answer}");
        assert_eq!(
            answer["run_result"]["stdout"],
            format!("{}\n", i * 2),
            "{i}"
        );
    }
    // Every request left the queue: its depth falls back to 0 (just after the last answer is
    // sent, so it is polled).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = server.get("/api/v1/health");
        assert_eq!(status, 200, "{body}");
        let depth = json_of(&body)["queue"]["depth"].clone();
        if depth == json!(0) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the queue stayed at depth {depth} after every answer"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The resident memory of process `pid`, in bytes.
fn resident_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib << 10
}

#[test]
fn a_flood_past_the_wait_queue_gets_504_and_503_quickly_and_memory_stays_bounded() {
    let server = Server::start(&["--jobs", "1", "--wait-queue", "4", "--max-body", "1MiB"]);
    // The worker is busy for the flood's whole length: an endless loop for its 2 x 8 s.
    let address = server.address.clone();
    let busy = std::thread::spawn(move || {
        let request =
            json!({"code": "while True:\n    pass", "language": "python", "run_timeout": 8});
        post(&address, "/run_code", &request.to_string(), "")
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while json_of(&server.get("/api/v1/health").1)["queue"]["depth"] != 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first request never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = resident_bytes(server.child.id());
    // 512 requests of 512 KiB each (256 MiB in all), 64 at a time, each giving up after 1 s.
    let padding = format!("# {}\n", "x".repeat(512 << 10));
    let mut answers = Vec::new();
    for _ in 0..8 {
        let bodies = (0..64)
            .map(|_| json!({"code": format!("{padding}print(1)"), "language": "python", "run_timeout": 0.5, "compile_timeout": 0.5}).to_string())
            .collect();
        answers.extend(post_all(&server.address, "/run_code", bodies));
    }
    let after = resident_bytes(server.child.id());
    let mut statuses = std::collections::BTreeMap::new();
    for (status, body, seconds) in &answers {
        *statuses.entry(*status).or_insert(0) += 1;
        assert!(
            matches!(status, 503 | 504),
            "{status}: {}",
            &body[..body.len().min(300)]
        );
        // 503 at once, 504 when the request's own 1 s is up.
        assert!(*seconds < 5.0, "{status} after {seconds} s");
    }
    assert!(
        statuses.get(&504).copied().unwrap_or(0) >= 4,
        "{statuses:?}"
    );
    assert!(
        statuses.get(&503).copied().unwrap_or(0) >= 400,
        "{statuses:?}"
    );
    let grown = after.saturating_sub(before);
    assert!(grown < 96 << 20, "the server grew by {} MiB", grown >> 20);
    let (status, _, body) = busy.join().unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        json_of(&body)["run_result"]["status"],
        "TimeLimitExceeded",
        "{body}"
    );
}

#[test]
fn regression_run_timeout_is_native_seconds_of_fuel_and_the_wall_clock_is_real_time() {
    // Issue 34: at run_timeout=10 the budget stayed the default fuel (0.2-0.45 s of native
    // CPython), and the wall clock, counted in ticks, stretched under load (killed at 12.2 s).
    let server = Server::start(&["--jobs", "2"]);
    // About 1.7e10 fuel: more than the default budget of 1e10, a fraction of a second natively.
    let program = "s = 0\nfor i in range(4_000_000):\n    s = (s + i * i) % 1000003\nprint(s)\n";
    let request = json!({"code": program, "language": "python", "run_timeout": 10});
    let (status, _, body) = server.post("/run_code", &request.to_string(), "");
    assert_eq!(status, 200, "{body}");
    let answer = json_of(&body);
    assert_eq!(answer["status"], "Success", "{answer}");
    let native: u64 = (0..4_000_000u64).fold(0, |s, i| (s + i * i) % 1_000_003);
    assert_eq!(answer["run_result"]["stdout"], format!("{native}\n"));
    // An endless loop ends at twice run_timeout of real time, however loaded the machine.
    let endless = json!({"code": "while True:\n    pass", "language": "python", "run_timeout": 1});
    let answers = post_all(&server.address, "/run_code", vec![endless.to_string(); 2]);
    for (status, body, seconds) in answers {
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            json_of(&body)["run_result"]["status"],
            "TimeLimitExceeded",
            "{body}"
        );
        assert!((2.0..3.5).contains(&seconds), "answered after {seconds} s");
    }
    // compile_timeout bounds the build: seconds of template instantiations get
    // TimeLimitExceeded at compile_timeout=1 (a nonce keeps the compile cache out of it).
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let slow = format!(
        "// {nonce}\n#include <utility>\n#include <cstdio>\n\
         template<int I> __attribute__((noinline)) int h(int x) {{ int s = x; for (int k = 0; k < I % 7 + 3; k++) s = s * 31 + I + k; return s; }}\n\
         template<int... I> int g(std::integer_sequence<int, I...>) {{ int s = 0; int a[] = {{(s += h<I>(I))...}}; (void)a; return s; }}\n\
         int main() {{ std::printf(\"%d\\n\", g(std::make_integer_sequence<int, 3000>{{}})); }}\n"
    );
    let request = json!({"code": slow, "language": "cpp", "compile_timeout": 1});
    let started = std::time::Instant::now();
    let (status, _, body) = server.post("/run_code", &request.to_string(), "");
    assert_eq!(status, 200, "{}", &body[..body.len().min(300)]);
    let answer = json_of(&body);
    assert_eq!(
        answer["compile_result"]["status"],
        "TimeLimitExceeded",
        "{}",
        &body[..body.len().min(600)]
    );
    assert_eq!(answer["run_result"], Value::Null);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}

/// Issue 33: the native API gives a task's reference time limit as its budget, as `run` does (so a
/// sample's verdict does not depend on the door), unless the server or the request set the fuel;
/// a client's task cannot ask for more than `--max-run-timeout` seconds of it.
#[test]
fn regression_a_tasks_time_limit_is_its_budget_through_the_api_as_in_run() {
    let server = Server::start(&["--jobs", "2", "--max-run-timeout", "1"]);
    let (_, body) = server.get("/api/v1/health");
    assert_eq!(json_of(&body)["limits"]["fuel_from_time_limit"], true);
    let task = |seconds: f64| {
        json!({"id": "t", "language": "python", "prompt": "", "time_limit": seconds,
            "tests": [{"kind": "calls", "entry_point": "f",
                "cases": [{"name": "a", "args": [2_000_000], "expected": 1_000_000}]}]})
    };
    // About 2.6e10 fuel: over the 1e10 default, within 1 s of native CPython (5.7e10).
    let slow = "def f(n):\n    return sum(1 for i in range(n) if sum(map(int, str(i))) % 2 == 0)\n";
    let endless = "def f(n):\n    while True:\n        pass\n";
    let evaluate = |task: Value, solution: &str, limits: Value| {
        let (status, _, body) = server.post(
            "/api/v1/evaluate",
            &json!({"task": task, "solution": solution, "limits": limits}).to_string(),
            "",
        );
        assert_eq!(status, 200, "{body}");
        json_of(&body)
    };
    let result = evaluate(task(1.0), slow, json!({}));
    assert_eq!(result["verdict"], "passed", "{result}");
    // A task asking for 10^6 s gets the server's 1 s.
    let result = evaluate(task(1e6), endless, json!({}));
    assert_eq!(result["verdict"], "timeout", "{result}");
    assert_eq!(result["fuel"], 57_000_000_000u64, "{result}");
    // A request's own fuel is its budget.
    let result = evaluate(task(1.0), slow, json!({"fuel": 1_000_000_000u64}));
    assert_eq!(result["verdict"], "timeout", "{result}");
}

/// `wasmeval serve ARGS` that must refuse to start: (exit code, stderr). Killed after two
/// minutes, so that one that starts after all fails the test instead of hanging it.
fn serve_refused(args: &[&str]) -> (Option<i32>, String) {
    let mut child = wasmeval()
        .arg("serve")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Issue 40: each flag `serve` is given wrong exits 2, naming the flag and what to give.
#[test]
fn serve_refuses_bad_flags_and_inputs_with_exit_2_naming_them() {
    let work = tempfile::tempdir().unwrap();
    let missing = work.path().join("missing.jsonl");
    let empty = work.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (missing_text, empty_text) = (missing.display().to_string(), empty.display().to_string());
    // A port taken by this test.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_text = taken.local_addr().unwrap().to_string();
    let loopback = ["--bind", "127.0.0.1:0"];
    for (args, says) in [
        (
            vec!["--token", " "],
            "--token is empty: give a secret that clients send as `Authorization: Bearer TOKEN`"
                .to_owned(),
        ),
        (
            vec!["--cors", "https://a.example\u{1}"],
            "is not a valid origin header value".to_owned(),
        ),
        (
            vec!["--runtime", &missing_text],
            format!("--runtime {missing_text}: no such folder"),
        ),
        (
            vec!["--max-run-timeout", "0"],
            "--max-run-timeout 0: give a positive number of seconds".to_owned(),
        ),
        (
            vec!["--max-memory", "512KiB"],
            "--max-memory 524288 bytes: give between 1MiB and 4GiB".to_owned(),
        ),
        (
            vec!["--tasks", &missing_text],
            format!("cannot open {missing_text}: "),
        ),
        (
            vec!["--tasks", &empty_text],
            format!("--tasks {empty_text}: the file has no tasks"),
        ),
        (
            vec!["--results", &missing_text],
            format!("{missing_text}: no such folder or file"),
        ),
    ] {
        let args: Vec<&str> = loopback.iter().copied().chain(args).collect();
        let (code, stderr) = serve_refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&says), "{args:?}: `{says}` not in {stderr}");
    }
    let (code, stderr) = serve_refused(&["--bind", "localhost"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("invalid value 'localhost' for '--bind <ADDR>'"),
        "{stderr}"
    );
    let (code, stderr) = serve_refused(&["--bind", &taken_text]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("--bind {taken_text}: cannot listen there (")),
        "{stderr}"
    );
    assert!(stderr.contains("port 0 picks a free one"), "{stderr}");
    drop(taken);
}

/// Issue 40: the requests a server refuses, each with its status and a message naming what to
/// send: the native API's unknown task and over-long batch line, SandboxFusion's unknown dataset,
/// id and language (in its own shapes: `detail`, FastAPI's 422 naming the field).
#[test]
fn refused_requests_name_what_to_send_instead() {
    let server = Server::start(&["--jobs", "1", "--max-body", "4KiB"]);
    let (status, _, body) = server.post(
        "/api/v1/evaluate",
        r#"{"task_id": "demo/999", "solution": "x"}"#,
        "",
    );
    assert_eq!(status, 404, "{body}");
    assert_eq!(
        json_of(&body)["error"],
        "no task `demo/999` on this server (GET /api/v1/tasks lists them)"
    );
    // A batch line over --max-body ends the batch with an error line naming the flag.
    let long = json!({"task_id": "demo/0", "solution": "#".repeat(8192)}).to_string() + "\n";
    let (status, head, raw) = server.post("/api/v1/evaluate/batch", &long, "");
    assert_eq!(status, 200, "{head}");
    let text = if head.to_ascii_lowercase().contains("chunked") {
        dechunk(&raw)
    } else {
        raw
    };
    let line = json_of(text.lines().next().unwrap_or_default());
    assert_eq!(
        (line["line"].clone(), line["error"].clone()),
        (json!(0), json!("a line over --max-body (4096 bytes)"))
    );
    // SandboxFusion's routes.
    let detail = |path: &str, body: Value| {
        let (status, _, answer) = server.post(path, &body.to_string(), "");
        (status, json_of(&answer)["detail"].clone())
    };
    assert_eq!(
        detail(
            "/submit",
            json!({"dataset": "nope", "id": "demo/0", "completion": "x", "config": {}})
        ),
        (
            404,
            json!("no dataset `nope` on this server; it has: tasks (or give the rows as config.provided_data)")
        )
    );
    assert_eq!(
        detail(
            "/get_prompt_by_id",
            json!({"dataset": "tasks", "id": "demo/999", "config": {}})
        ),
        (404, json!("no id `demo/999` in dataset `tasks`"))
    );
    let (status, refused) = detail(
        "/submit",
        json!({"dataset": "tasks", "id": "demo/0", "completion": "x", "config": {"language": "cobol"}}),
    );
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused[0]["loc"], json!(["body", "config", "language"]));
    assert!(
        refused[0]["msg"]
            .as_str()
            .unwrap()
            .starts_with("wasmeval cannot run `cobol`: it runs "),
        "{refused}"
    );
    let (status, refused) = detail(
        "/submit",
        json!({"dataset": "tasks", "id": "demo/0", "completion": "x", "config": {"language": "cpp"}}),
    );
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused
            .as_str()
            .unwrap()
            .starts_with("task `demo/0` is tested in python; config.language `cpp` cannot run"),
        "{refused}"
    );
    let (status, refused) = detail(
        "/submit",
        json!({"dataset": "any", "id": "x", "completion": "x", "config": {"provided_data": [{"no": "task"}]}}),
    );
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused[0]["loc"],
        json!(["body", "config", "provided_data", 0])
    );
}
