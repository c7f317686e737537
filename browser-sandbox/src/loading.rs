//! Loading the guests a site ships (`runtimes/<guest>/guest.json` and its metered module): fetched
//! on the first run of a language, kept in the Cache API (so a reload, or a new worker after a
//! terminated one, downloads nothing), compiled once per worker. Large files of the guest's
//! folders (the Python standard library's zip) are read in chunks by synchronous requests from
//! the worker, only the chunks the guest reads, and kept for the worker's life.

use js_sys::{ArrayBuffer, Uint8Array, WebAssembly};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasmeval_core::evaluation::{BrowserFile, BrowserGuest, Preload};
use wasmeval_virtual_wasi::files::{Source, Unavailable};

/// The Cache API's cache of guest files.
const CACHE: &str = "wasmeval-guests-v1";

thread_local! {
    static LOADED: RefCell<HashMap<String, Rc<Loaded>>> = RefCell::new(HashMap::new());
    static DOWNLOADED: Cell<u64> = const { Cell::new(0) };
}

/// Bytes downloaded since the worker started.
pub fn downloaded() -> u64 {
    DOWNLOADED.with(Cell::get)
}

fn count(bytes: u64) {
    DOWNLOADED.with(|d| d.set(d.get() + bytes));
}

/// A guest ready to instantiate.
pub struct Loaded {
    /// Its `guest.json`.
    pub manifest: BrowserGuest,
    /// Its compiled, metered module.
    module: WebAssembly::Module,
    /// Its scientific image, once a sample has needed it ([`scientific_image`]).
    scientific: OnceCell<WebAssembly::Module>,
    /// The URL of its folder.
    base: String,
    /// Its folders' large files, each read on demand.
    pub sources: Vec<(usize, String, Rc<dyn Source>)>,
}

impl Loaded {
    /// The module a job that asks for `preload` instantiates under a memory limit of
    /// `memory_limit` bytes (core's `Preload::available`, as the runner decides).
    pub fn module(&self, preload: Preload, memory_limit: u64) -> &WebAssembly::Module {
        let scientific = self.scientific.get();
        let start = scientific
            .and(self.manifest.scientific.as_ref())
            .map(|image| image.initial_memory);
        match (preload.available(memory_limit, start), scientific) {
            (Preload::Scientific, Some(module)) => module,
            _ => &self.module,
        }
    }
}

/// Loads `guest`'s scientific image, once per worker, when its site ships one and it can start
/// within `memory_limit`: a sample that imports numpy waits for it (a second download as large as
/// the guest's, on its first use).
pub async fn scientific_image(guest: &Loaded, memory_limit: u64) -> Result<(), JsValue> {
    let Some(image) = &guest.manifest.scientific else {
        return Ok(());
    };
    let wanted = Preload::Scientific.available(memory_limit, Some(image.initial_memory));
    if wanted == Preload::Scientific && guest.scientific.get().is_none() {
        let module = compiled(&format!("{}{}", guest.base, image.module)).await?;
        let _ = guest.scientific.set(module);
    }
    Ok(())
}

/// The metered module at `url`, fetched (through the Cache API) and compiled.
async fn compiled(url: &str) -> Result<WebAssembly::Module, JsValue> {
    let bytes = fetch_bytes(url, true).await?;
    Ok(
        JsFuture::from(WebAssembly::compile(&Uint8Array::from(&bytes[..]).into()))
            .await?
            .unchecked_into(),
    )
}

/// The guest `name` of the site whose `runtimes/` folder is at `runtimes`, loaded once per worker.
pub async fn guest(runtimes: &str, name: &str) -> Result<Rc<Loaded>, JsValue> {
    let key = format!("{runtimes}{name}");
    if let Some(loaded) = LOADED.with(|l| l.borrow().get(&key).cloned()) {
        return Ok(loaded);
    }
    let base = format!("{runtimes}{name}/");
    let manifest_bytes = fetch_bytes(&format!("{base}guest.json"), false).await?;
    let manifest: BrowserGuest = serde_json::from_slice(&manifest_bytes)
        .map_err(|e| JsValue::from_str(&format!("{base}guest.json: {e}")))?;
    let module = compiled(&format!("{base}{}", manifest.module)).await?;
    let mut sources: Vec<(usize, String, Rc<dyn Source>)> = Vec::new();
    for (index, folder) in manifest.folders.iter().enumerate() {
        for file in &folder.files {
            let source = Chunked::new(&base, file);
            sources.push((index, file.path.clone(), Rc::new(source)));
        }
    }
    let loaded = Rc::new(Loaded {
        manifest,
        module,
        scientific: OnceCell::new(),
        base,
        sources,
    });
    LOADED.with(|l| l.borrow_mut().insert(key, loaded.clone()));
    Ok(loaded)
}

/// The bytes at `url`, from the Cache API when `cached` and already there.
async fn fetch_bytes(url: &str, cached: bool) -> Result<Vec<u8>, JsValue> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let cache: Option<web_sys::Cache> = match (cached, scope.caches()) {
        (true, Ok(caches)) => JsFuture::from(caches.open(CACHE))
            .await
            .ok()
            .map(JsCast::unchecked_into),
        _ => None,
    };
    if let Some(cache) = &cache {
        let hit = JsFuture::from(cache.match_with_str(url)).await?;
        if let Some(response) = hit.dyn_ref::<web_sys::Response>() {
            return body(response).await;
        }
    }
    let response: web_sys::Response = JsFuture::from(scope.fetch_with_str(url))
        .await?
        .unchecked_into();
    if !response.ok() {
        return Err(JsValue::from_str(&format!(
            "{url}: HTTP {} (was the site built with `wasmeval report --site DIR --with-runtimes`?)",
            response.status()
        )));
    }
    if let Some(cache) = &cache {
        // A failed put (storage full, private mode) only costs a download next time.
        let _ = JsFuture::from(cache.put_with_str(url, &response.clone()?)).await;
    }
    // Guests are large: the page shows their download; a manifest is not worth a message.
    let bytes = match cached {
        true => streamed(&response, url).await?,
        false => body(&response).await?,
    };
    count(bytes.len() as u64);
    Ok(bytes)
}

/// The body of `response` read as a stream, telling the page how far the download is
/// (`{loading: {url, received, total}}`, about every megabyte): the Python guest is 131 MB.
async fn streamed(response: &web_sys::Response, url: &str) -> Result<Vec<u8>, JsValue> {
    let total: Option<f64> = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|t| t.parse().ok());
    let Some(stream) = response.body() else {
        return body(response).await;
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::new();
    let mut told = 0usize;
    loop {
        let chunk = JsFuture::from(reader.read()).await?;
        if js_sys::Reflect::get(&chunk, &"done".into())?.is_truthy() {
            break;
        }
        let value: Uint8Array = js_sys::Reflect::get(&chunk, &"value".into())?.unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        if bytes.len() - told >= 1 << 20 {
            told = bytes.len();
            tell_progress(url, bytes.len(), total);
        }
    }
    tell_progress(url, bytes.len(), total);
    Ok(bytes)
}

/// Posts `{loading: {url, received, total}}` to the page.
fn tell_progress(url: &str, received: usize, total: Option<f64>) {
    let progress = js_sys::Object::new();
    let set = |key: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&progress, &key.into(), &value);
    };
    set("url", url.into());
    set("received", (received as f64).into());
    set("total", total.map_or(JsValue::NULL, JsValue::from));
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"loading".into(), &progress);
    let _ = js_sys::global()
        .unchecked_into::<web_sys::DedicatedWorkerGlobalScope>()
        .post_message(&message);
}

async fn body(response: &web_sys::Response) -> Result<Vec<u8>, JsValue> {
    let buffer: ArrayBuffer = JsFuture::from(response.array_buffer()?)
        .await?
        .unchecked_into();
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// A large read-only file fetched in chunks by synchronous requests (a worker may make them),
/// each chunk once.
struct Chunked {
    prefix: String,
    size: u64,
    chunk_size: u64,
    chunks: RefCell<HashMap<u64, Vec<u8>>>,
}

impl Chunked {
    fn new(base: &str, file: &BrowserFile) -> Chunked {
        Chunked {
            prefix: format!("{base}{}", file.chunks),
            size: file.size,
            chunk_size: file.chunk_size.max(1),
            chunks: RefCell::default(),
        }
    }

    /// Fetches chunk `index` unless it is here already.
    fn chunk(&self, index: u64) -> Result<(), ()> {
        if self.chunks.borrow().contains_key(&index) {
            return Ok(());
        }
        let request = web_sys::XmlHttpRequest::new().map_err(|_| ())?;
        let url = format!("{}{index:05}", self.prefix);
        request
            .open_with_async("GET", &url, false)
            .map_err(|_| ())?;
        request.set_response_type(web_sys::XmlHttpRequestResponseType::Arraybuffer);
        request.send().map_err(|_| ())?;
        if request.status().map_err(|_| ())? != 200 {
            return Err(());
        }
        let buffer: ArrayBuffer = request.response().map_err(|_| ())?.unchecked_into();
        let bytes = Uint8Array::new(&buffer).to_vec();
        count(bytes.len() as u64);
        self.chunks.borrow_mut().insert(index, bytes);
        Ok(())
    }
}

impl Source for Chunked {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> Result<(), Unavailable> {
        let mut done = 0usize;
        while done < out.len() {
            let at = offset + done as u64;
            let index = at / self.chunk_size;
            self.chunk(index).map_err(|()| Unavailable)?;
            let chunks = self.chunks.borrow();
            let chunk = chunks.get(&index).ok_or(Unavailable)?;
            let start = (at - index * self.chunk_size) as usize;
            let n = (chunk.len().saturating_sub(start)).min(out.len() - done);
            if n == 0 {
                return Err(Unavailable);
            }
            out[done..done + n].copy_from_slice(&chunk[start..start + n]);
            done += n;
        }
        Ok(())
    }
}
