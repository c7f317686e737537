//! The worker's entry point: a [`Request`](crate::Request) in, an [`Answer`](crate::Answer) out,
//! with core's drive and judging, and each job run by [`Jobs`] on a [`guest::Instance`].

use crate::guest::{Door, Instance};
use crate::loading::{self, Loaded};
use crate::{Answer, Limits, Request};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasmeval_core::evaluation::{self, Budget, Executor, Guest, Interpreted, Job, Preload, Run};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{Execution, Exit};
use wasmeval_core::Language;
use wasmeval_virtual_wasi::files::{Contents, Tree};
use wasmeval_virtual_wasi::{Config, Preopen, Wasi};

thread_local! {
    /// The harness compiled to the Python guest's bytecode, once per worker.
    static HARNESS_CODE: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// Evaluates the sample of `request` (JSON of [`Request`]) and answers JSON of [`Answer`].
#[wasm_bindgen]
pub async fn evaluate(request: String) -> Result<String, JsValue> {
    let request: Request = serde_json::from_str(&request)
        .map_err(|e| JsValue::from_str(&format!("a bad request: {e}")))?;
    let (guest, name) = match request.task.language {
        Language::Python => (Guest::Python, "python"),
        Language::Javascript => (Guest::JavaScript, "js"),
        other => {
            return Err(JsValue::from_str(&format!(
                "{} samples need `wasmeval serve`: this browser runs Python and JavaScript",
                other.title()
            )))
        }
    };
    let loaded = loading::guest(&request.runtimes, name).await?;
    // Core's rule, as the runner applies it: the same image, so the same fuel.
    if guest == Guest::Python
        && evaluation::python::preload(&request.task, &request.sample) == Preload::Scientific
    {
        loading::scientific_image(&loaded, request.limits.memory).await?;
    }
    let mut jobs = Jobs {
        loaded,
        limits: request.limits,
    };
    let harness_code = match guest {
        Guest::Python => jobs.harness_code()?,
        Guest::JavaScript | Guest::Lua => Vec::new(),
    };
    // The page's wall clock starts now: loading a guest is not the program's time.
    let started = js_sys::Object::new();
    js_sys::Reflect::set(&started, &"started".into(), &JsValue::TRUE)?;
    js_sys::global()
        .unchecked_into::<web_sys::DedicatedWorkerGlobalScope>()
        .post_message(&started)?;
    let token = fresh_token()?;
    let mut route = Interpreted {
        guest,
        executor: &mut jobs,
        budget: Budget {
            fuel: request.limits.fuel,
            wall: Duration::from_millis(request.limits.timeout_ms),
        },
        token: &token,
        harness_code: &harness_code,
    };
    let result = evaluation::evaluate(&mut route, &request.task, &request.sample)?;
    let answer = Answer {
        result,
        downloaded: loading::downloaded(),
        own_stacks: crate::guest::own_stacks(),
    };
    let answer = serde_json::to_string(&answer).map_err(|e| JsValue::from_str(&e.to_string()))?;
    crate::guest::settle_traps(answer).await
}

/// A reporting token from the browser's CSPRNG.
fn fresh_token() -> Result<Token, JsValue> {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into())?;
    let bytes = js_sys::Uint8Array::new_with_length(16);
    let fill: js_sys::Function = js_sys::Reflect::get(&crypto, &"getRandomValues".into())?.into();
    fill.call1(&crypto, &bytes)?;
    let mut out = [0u8; 16];
    bytes.copy_to(&mut out);
    Ok(Token::from_random_bytes(out))
}

/// Runs core's jobs on a loaded guest.
struct Jobs {
    loaded: Rc<Loaded>,
    limits: Limits,
}

impl Jobs {
    /// The harness's bytecode, compiled in the guest on the worker's first Python run.
    fn harness_code(&mut self) -> Result<Vec<u8>, JsValue> {
        if let Some(code) = HARNESS_CODE.with(|h| h.borrow().clone()) {
            return Ok(code);
        }
        let limits = Limits {
            fuel: 5_000_000_000,
            memory: 512 << 20,
            timeout_ms: 120_000,
            output: 64 << 20,
            disk: 0,
        };
        let saved = std::mem::replace(&mut self.limits, limits);
        let budget = Budget {
            fuel: limits.fuel,
            wall: Duration::from_millis(limits.timeout_ms),
        };
        let execution = self.execute(Run::Alone(&evaluation::python::compile_job()), budget);
        self.limits = saved;
        let execution = execution?;
        match execution.exit {
            Exit::Code(0) if !execution.output.stdout.is_empty() => {
                let code = execution.output.stdout;
                HARNESS_CODE.with(|h| *h.borrow_mut() = Some(code.clone()));
                Ok(code)
            }
            exit => Err(JsValue::from_str(&format!(
                "the Python guest could not compile the harness ({exit:?}): {}",
                String::from_utf8_lossy(&execution.output.stderr)
            ))),
        }
    }

    /// The WASI state of `job`: the runtime's folders, then `/job`, then a fresh `/tmp` when the
    /// job has one (the runner's order of preopens).
    fn wasi(&self, job: &Job, budget: Budget) -> Wasi {
        let manifest = &self.loaded.manifest;
        let mut tree = Tree::default();
        let mut preopens = Vec::new();
        for (index, folder) in manifest.folders.iter().enumerate() {
            let root = tree.folder(false);
            for (of, path, source) in &self.loaded.sources {
                if *of == index {
                    tree.add_file(root, path, Contents::Source(source.clone()));
                }
            }
            preopens.push(Preopen {
                guest_path: folder.guest.clone(),
                root,
            });
        }
        // The runtime's root folder holds the mount points of the others, as on the host.
        if manifest.folders.first().is_some_and(|f| f.guest == "/") {
            for folder in manifest.folders.iter().skip(1) {
                let path = folder.guest.trim_start_matches('/');
                tree.add_folder_path(preopens[0].root, path);
            }
        }
        let job_root = tree.folder(false);
        for file in &job.files {
            tree.add_file(job_root, &file.name, Contents::Bytes(file.bytes.clone()));
        }
        preopens.push(Preopen {
            guest_path: "/job".into(),
            root: job_root,
        });
        if job.scratch {
            let tmp = tree.folder(true);
            preopens.push(Preopen {
                guest_path: "/tmp".into(),
                root: tmp,
            });
        }
        let args = std::iter::once(manifest.argv0.clone())
            .chain(job.args.iter().cloned())
            .collect();
        let env = manifest.env.iter().chain(&job.env).cloned().collect();
        Wasi::new(Config {
            args,
            env,
            stdin: job.stdin.clone(),
            output_limit: self.limits.output,
            disk_limit: self.limits.disk,
            time_limit_nanos: u64::try_from(budget.wall.as_nanos()).unwrap_or(u64::MAX),
            tree,
            preopens,
        })
    }

    fn reactor(&self) -> bool {
        self.loaded.manifest.entry == "reactor"
    }

    /// An instance of the guest for `job`, or the execution of one that could not start.
    fn instance(
        &self,
        job: &Job,
        budget: Budget,
        door: Door,
    ) -> Result<Result<Instance, Execution>, JsValue> {
        Instance::new(
            self.loaded.module(job.preload, self.limits.memory),
            self.wasi(job, budget),
            budget.fuel,
            self.limits.memory,
            door,
        )
    }
}

impl Executor for Jobs {
    type Error = JsValue;

    fn execute(&mut self, run: Run<'_>, budget: Budget) -> Result<Execution, JsValue> {
        let execution = match run {
            Run::Alone(job) => match self.instance(job, budget, Door::Closed)? {
                Ok(instance) => instance.enter(self.reactor()),
                Err(refused) => refused,
            },
            Run::Judge {
                judge,
                partner,
                setup,
            } => {
                let partner = match self.instance(
                    partner,
                    budget,
                    Door::Partner {
                        request: None,
                        reply: None,
                    },
                )? {
                    Ok(instance) => Rc::new(instance),
                    Err(refused) => return Ok(refused),
                };
                if let Err(exit) = partner.initialize().and_then(|()| partner.turn(setup)) {
                    return Ok(partner.measured(exit));
                }
                let judge = match self.instance(judge, budget, Door::Judge(partner.clone()))? {
                    Ok(instance) => instance,
                    Err(refused) => return Ok(refused),
                };
                let mut execution = judge.enter(self.reactor());
                if let Some(end) = judge.partner_end() {
                    execution.exit = end;
                }
                execution.with_partner(partner.measured(Exit::Code(0)))
            }
        };
        // Only interpreters of ours run here: not starting within the limit is a setting's fault.
        if let Exit::MemoryAtStart(error) = &execution.exit {
            return Err(JsValue::from_str(&format!(
                "the guest cannot start within the memory limit of {} bytes: {error}",
                self.limits.memory
            )));
        }
        Ok(execution)
    }
}
