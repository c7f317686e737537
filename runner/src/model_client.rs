//! A client of OpenAI-compatible model servers (vLLM, llama.cpp's server, Ollama, LM Studio,
//! TGI, OpenAI): chat completions, or text completions for base models. HTTP is ureq's; this
//! module adds what a long generation run needs: a hard per-request timeout, retries with
//! exponential backoff and jitter on 429, 5xx and connection failures (honouring `Retry-After`),
//! and errors that name the endpoint and the model for what retrying cannot fix (401, 403, 404).
//!
//! The API key is held only to be sent in the `Authorization` header: no error message, log line
//! or file written by wasmeval contains it.

use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};
use wasmeval_core::generation::TokenChoices;

/// Which API the server is asked through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Api {
    /// `/v1/chat/completions`: messages in, a message out (instruction-tuned models).
    Chat,
    /// `/v1/completions`: text in, its continuation out (base models).
    Completions,
}

/// Where and how to ask.
#[derive(Clone)]
pub struct ClientConfig {
    /// The server's base URL as the user gave it (`http://127.0.0.1:8080/v1`).
    pub endpoint: String,
    /// The model name sent with every request.
    pub model: String,
    /// Sent as a bearer token when set.
    pub api_key: Option<String>,
    /// The API.
    pub api: Api,
    /// Hard limit on one request, answer included.
    pub timeout: Duration,
    /// Retries of one request after a transient failure.
    pub retries: u32,
    /// Fields added to every request body (a server's own options: llama.cpp's `grammar`,
    /// vLLM's `guided_choice`); they may override wasmeval's.
    pub extra_body: Map<String, Value>,
}

/// Sampling settings of a request.
#[derive(Debug, Clone, Default)]
pub struct Sampling {
    /// Temperature.
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    pub top_p: Option<f64>,
    /// Longest answer, in tokens.
    pub max_tokens: Option<u32>,
    /// Seed, for servers that honour one.
    pub seed: Option<u64>,
    /// Stop sequences.
    pub stop: Vec<String>,
    /// Ask for the top `n` alternatives of each generated token.
    pub logprobs: Option<u32>,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: &'static str,
    /// Its text.
    pub content: String,
}

/// What is asked: a conversation (chat API) or a text to continue (completions API).
#[derive(Debug, Clone)]
pub enum Prompt {
    /// Chat messages.
    Chat(Vec<Message>),
    /// Raw text.
    Text(String),
}

/// A model's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The generated text.
    pub text: String,
    /// Tokens generated, as the server's `usage` says.
    pub completion_tokens: Option<u64>,
    /// Why generation stopped (`stop`, `length`).
    pub finish_reason: Option<String>,
    /// Seconds from sending the request to the whole answer (the last try's).
    pub seconds: f64,
    /// Retries the answer needed.
    pub retries: u32,
    /// The generated tokens with their alternatives, when asked for and given.
    pub tokens: Vec<TokenChoices>,
}

/// Why a request failed for good.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Retrying cannot help (bad key, unknown model, wrong URL, a request the server refuses):
    /// the whole run stops.
    #[error("{0}")]
    Refused(String),
    /// Transient failures outlasted every retry.
    #[error("{0}")]
    GaveUp(String),
}

/// A client; cheap to share between threads.
pub struct ModelClient {
    config: ClientConfig,
    agent: ureq::Agent,
    url: String,
}

/// Longest backoff between tries, and longest `Retry-After` honoured.
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// First backoff.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// Largest answer body read (a hostile or broken server cannot grow the process past it).
const MAX_BODY: u64 = 16 << 20;

impl ModelClient {
    /// A client of `config`'s server.
    pub fn new(config: ClientConfig) -> ModelClient {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("wasmeval/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        let url = api_url(&config.endpoint, config.api);
        ModelClient { config, agent, url }
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Asks `prompt` with `sampling`, retrying transient failures.
    pub fn ask(&self, prompt: &Prompt, sampling: &Sampling) -> Result<Answer, ClientError> {
        let body = self.body(prompt, sampling);
        let mut retries = 0;
        loop {
            let started = Instant::now();
            let failure = match self.send(&body) {
                Ok(Ok(mut answer)) => {
                    answer.seconds = started.elapsed().as_secs_f64();
                    answer.retries = retries;
                    return Ok(answer);
                }
                Ok(Err(Failure::Refused(message))) => return Err(ClientError::Refused(message)),
                Ok(Err(Failure::Transient {
                    message,
                    retry_after,
                })) => (message, retry_after),
                Err(transport) => (transport, None),
            };
            if retries >= self.config.retries {
                return Err(ClientError::GaveUp(format!(
                    "{} failed {} times, last: {}",
                    self.url,
                    retries + 1,
                    failure.0
                )));
            }
            std::thread::sleep(backoff(retries, failure.1));
            retries += 1;
        }
    }

    fn body(&self, prompt: &Prompt, sampling: &Sampling) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), self.config.model.clone().into());
        match prompt {
            Prompt::Chat(messages) => {
                let messages: Vec<Value> = messages
                    .iter()
                    .map(|m| json!({"role": m.role, "content": m.content}))
                    .collect();
                body.insert("messages".into(), messages.into());
            }
            Prompt::Text(text) => {
                body.insert("prompt".into(), text.clone().into());
            }
        }
        let mut set = |key: &str, value: Option<Value>| {
            if let Some(value) = value {
                body.insert(key.into(), value);
            }
        };
        set("temperature", sampling.temperature.map(Value::from));
        set("top_p", sampling.top_p.map(Value::from));
        set("max_tokens", sampling.max_tokens.map(Value::from));
        set("seed", sampling.seed.map(Value::from));
        set(
            "stop",
            (!sampling.stop.is_empty()).then(|| Value::from(sampling.stop.clone())),
        );
        match (sampling.logprobs, prompt) {
            (Some(n), Prompt::Chat(_)) => {
                set("logprobs", Some(true.into()));
                set("top_logprobs", Some(n.into()));
            }
            (Some(n), Prompt::Text(_)) => set("logprobs", Some(n.into())),
            (None, _) => {}
        }
        for (key, value) in &self.config.extra_body {
            body.insert(key.clone(), value.clone());
        }
        Value::Object(body)
    }

    /// One try: `Err` for a transport failure (connection refused or reset, timeout).
    fn send(&self, body: &Value) -> Result<Result<Answer, Failure>, String> {
        let mut request = self.agent.post(&self.url);
        if let Some(key) = &self.config.api_key {
            request = request.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = request.send_json(body).map_err(transport_error)?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| Duration::from_secs_f64(s).min(MAX_BACKOFF));
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
            .map_err(transport_error)?;
        if (200..300).contains(&status) {
            return Ok(self.parse(&text).map_err(|message| Failure::Transient {
                message,
                retry_after: None,
            }));
        }
        Ok(Err(self.status_failure(status, &text, retry_after)))
    }

    fn status_failure(&self, status: u16, text: &str, retry_after: Option<Duration>) -> Failure {
        let said = server_message(text);
        let (endpoint, model) = (&self.config.endpoint, &self.config.model);
        match status {
            408 | 409 | 425 | 429 | 500..=599 => Failure::Transient {
                message: format!("HTTP {status}: {said}"),
                retry_after,
            },
            401 | 403 => Failure::Refused(format!(
                "{endpoint} refused the request (HTTP {status}): check the API key (read from \
                 the environment variable --api-key-env names) and that it may use model \
                 `{model}`; the server said: {said}"
            )),
            404 => Failure::Refused(format!(
                "{} answered 404: check --endpoint (the server's base URL, such as \
                 http://127.0.0.1:8080/v1), --api ({}) and --model `{model}`; the server said: \
                 {said}",
                self.url,
                match self.config.api {
                    Api::Chat => "chat",
                    Api::Completions => "completions",
                },
            )),
            _ => Failure::Refused(format!(
                "{} refused the request for model `{model}` (HTTP {status}): {said}",
                self.url
            )),
        }
    }

    /// The answer in a 2xx body; an unreadable one is transient (a proxy's error page).
    fn parse(&self, text: &str) -> Result<Answer, String> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| format!("the answer is not JSON ({e}): {}", excerpt(text)))?;
        let choice = value
            .get("choices")
            .and_then(|c| c.get(0))
            .ok_or_else(|| format!("the answer has no `choices`: {}", excerpt(text)))?;
        let answer_text = match self.config.api {
            Api::Chat => choice.pointer("/message/content").and_then(Value::as_str),
            Api::Completions => choice.get("text").and_then(Value::as_str),
        }
        .ok_or_else(|| format!("the answer's first choice has no text: {}", excerpt(text)))?;
        Ok(Answer {
            text: answer_text.to_owned(),
            completion_tokens: value
                .pointer("/usage/completion_tokens")
                .and_then(Value::as_u64),
            finish_reason: choice
                .get("finish_reason")
                .and_then(Value::as_str)
                .map(str::to_owned),
            seconds: 0.0,
            retries: 0,
            tokens: choice
                .get("logprobs")
                .map(token_choices)
                .unwrap_or_default(),
        })
    }
}

/// How one try failed.
enum Failure {
    Refused(String),
    Transient {
        message: String,
        retry_after: Option<Duration>,
    },
}

fn transport_error(error: ureq::Error) -> String {
    match error {
        ureq::Error::Timeout(_) => "no whole answer within --request-timeout".to_owned(),
        other => other.to_string(),
    }
}

/// The URL of `api` on the server at `endpoint`: `.../v1` gets `/chat/completions` or
/// `/completions`; a URL that already ends with one of them is kept; any other gets `/v1/...`.
pub fn api_url(endpoint: &str, api: Api) -> String {
    let base = endpoint.trim_end_matches('/');
    let path = match api {
        Api::Chat => "chat/completions",
        Api::Completions => "completions",
    };
    if base.ends_with("/chat/completions") || base.ends_with("/completions") {
        base.to_owned()
    } else if base.ends_with("/v1") {
        format!("{base}/{path}")
    } else {
        format!("{base}/v1/{path}")
    }
}

/// How long to wait before retry `retry` (from 0): the server's `Retry-After` when it gave one,
/// else 0.5 s doubling up to 60 s, with half of it random so that many clients spread out.
fn backoff(retry: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(wait) = retry_after {
        return wait;
    }
    let full = FIRST_BACKOFF
        .saturating_mul(1u32 << retry.min(16))
        .min(MAX_BACKOFF);
    let random = getrandom::u64().unwrap_or(0) % 1000;
    full / 2 + full / 2 * random as u32 / 1000
}

/// The server's error message in a body (`{"error": {"message": ...}}`), or the body's start,
/// printable on a terminal (see [`printable`]).
fn server_message(text: &str) -> String {
    let message = serde_json::from_str::<Value>(text).ok().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("error"))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(Value::as_str)
            .map(excerpt)
    });
    message.unwrap_or_else(|| excerpt(text))
}

/// The start of a server's text, printable on a terminal.
fn excerpt(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    let more = cut.len() < text.len();
    let cut = printable(&cut);
    match more {
        true => format!("{cut}..."),
        false => cut,
    }
}

/// `text` with its control characters escaped (`\u{1b}`, `\n`): what a model server says reaches
/// the user's terminal in messages, and must not set its title, clear it or move its cursor.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// The tokens of a choice's `logprobs`, in the chat API's shape (`content` of
/// `{token, logprob, top_logprobs: [{token, logprob}]}`) or the completions API's (`tokens`,
/// `token_logprobs`, `top_logprobs: [{token: logprob}]`).
fn token_choices(logprobs: &Value) -> Vec<TokenChoices> {
    if let Some(content) = logprobs.get("content").and_then(Value::as_array) {
        return content
            .iter()
            .filter_map(|entry| {
                Some(TokenChoices {
                    token: entry.get("token")?.as_str()?.to_owned(),
                    logprob: entry.get("logprob")?.as_f64()?,
                    alternatives: entry
                        .get("top_logprobs")
                        .and_then(Value::as_array)
                        .map(|top| {
                            top.iter()
                                .filter_map(|t| {
                                    Some((
                                        t.get("token")?.as_str()?.to_owned(),
                                        t.get("logprob")?.as_f64()?,
                                    ))
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                })
            })
            .collect();
    }
    let tokens = logprobs.get("tokens").and_then(Value::as_array);
    let logprob = logprobs.get("token_logprobs").and_then(Value::as_array);
    let top = logprobs.get("top_logprobs").and_then(Value::as_array);
    let (Some(tokens), Some(logprob)) = (tokens, logprob) else {
        return Vec::new();
    };
    tokens
        .iter()
        .zip(logprob)
        .enumerate()
        .filter_map(|(i, (token, logprob))| {
            Some(TokenChoices {
                token: token.as_str()?.to_owned(),
                logprob: logprob.as_f64()?,
                alternatives: top
                    .and_then(|t| t.get(i))
                    .and_then(Value::as_object)
                    .map(|alternatives| {
                        alternatives
                            .iter()
                            .filter_map(|(t, l)| Some((t.clone(), l.as_f64()?)))
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_a_servers_escape_codes_never_reach_the_terminal() {
        let body = "\u{1b}]0;owned\u{7}\u{1b}[2J\r\nbad gateway";
        let message = server_message(body);
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.contains("\\u{1b}]0;owned"), "{message}");
        let json = serde_json::json!({"error": {"message": "\u{1b}[2Jgone"}}).to_string();
        assert_eq!(server_message(&json), "\\u{1b}[2Jgone");
    }

    #[test]
    fn urls_from_endpoints() {
        assert_eq!(
            api_url("http://127.0.0.1:8080", Api::Chat),
            "http://127.0.0.1:8080/v1/chat/completions"
        );
        assert_eq!(
            api_url("http://h/v1/", Api::Completions),
            "http://h/v1/completions"
        );
        assert_eq!(
            api_url("https://h/openai/v1/chat/completions", Api::Chat),
            "https://h/openai/v1/chat/completions"
        );
    }

    #[test]
    fn backoff_doubles_with_jitter_and_honours_retry_after() {
        for retry in 0..20 {
            let wait = backoff(retry, None);
            let full = FIRST_BACKOFF
                .saturating_mul(1 << retry.min(16))
                .min(MAX_BACKOFF);
            assert!(wait >= full / 2 && wait <= full, "{retry}: {wait:?}");
        }
        assert_eq!(
            backoff(5, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
    }

    #[test]
    fn logprobs_of_both_apis_are_read() {
        let chat = json!({"content": [{"token": " 3", "logprob": -0.1,
            "top_logprobs": [{"token": " 3", "logprob": -0.1}, {"token": " 4", "logprob": -2.5}]}]});
        let read = token_choices(&chat);
        assert_eq!(read[0].token, " 3");
        assert_eq!(read[0].alternatives[1], (" 4".to_owned(), -2.5));
        let completions = json!({"tokens": ["a", " 3"], "token_logprobs": [-0.5, -0.1],
            "top_logprobs": [{"a": -0.5}, {" 3": -0.1, " 2": -3.0}]});
        let read = token_choices(&completions);
        assert_eq!(read.len(), 2);
        assert_eq!(read[1].alternatives.len(), 2);
    }
}
