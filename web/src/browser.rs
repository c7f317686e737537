//! The few things the site asks of the browser: fetching a URL, reading a dropped or picked
//! file, offering a download, reading and writing the page's URL (and hearing Back and Forward)
//! and a clock. Errors are strings for the
//! page to show, with their cause kept.

use wasm_bindgen::JsCast;

/// Fetches `url`: its HTTP status and text, whatever the status.
pub async fn fetch_status(url: &str) -> Result<(u16, String), String> {
    let response = gloo::net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| format!("cannot fetch {url}: {e}"))?;
    let text = response
        .text()
        .await
        .map_err(|e| format!("cannot read {url}: {e}"))?;
    Ok((response.status(), text))
}

/// Fetches `url` as text; an HTTP error status is an error naming the status.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo::net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| format!("cannot fetch {url}: {e}"))?;
    if !response.ok() {
        return Err(format!(
            "cannot fetch {url}: HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    response
        .text()
        .await
        .map_err(|e| format!("cannot read {url}: {e}"))
}

/// POSTs `body` (JSON) to `url` and returns the answer's text; `signal` aborts the request. An
/// HTTP error status is an error with the server's own `error` message when it sent one.
pub async fn post_json(
    url: &str,
    body: &str,
    signal: &web_sys::AbortSignal,
) -> Result<String, String> {
    let response = gloo::net::http::Request::post(url)
        .header("Content-Type", "application/json")
        .abort_signal(Some(signal))
        .body(body.to_owned())
        .map_err(|e| format!("cannot make the request: {e}"))?
        .send()
        .await
        .map_err(|e| format!("cannot reach the server: {e}"))?;
    let text = response
        .text()
        .await
        .map_err(|e| format!("cannot read the server's answer: {e}"))?;
    if response.ok() {
        return Ok(text);
    }
    let said = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned));
    Err(match (response.status(), said) {
        (429, _) => "Every worker of the server is busy: try again in a moment.".to_owned(),
        (status, Some(error)) => format!("The server refused the run (HTTP {status}): {error}"),
        (status, None) => format!(
            "The server answered HTTP {status} {}",
            response.status_text()
        ),
    })
}

/// Fetches a bundle from `url`, calling `on_progress(bytes received, bytes expected when the
/// server says)` as its body arrives, and returns its text, gunzipped when it is gzip (a
/// `bundle.json.gz` on a static host: 20 MB of results travel as 1 MB).
pub async fn fetch_bundle(
    url: &str,
    on_progress: impl Fn(u64, Option<u64>),
) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {}", js_error(&e)))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!(
            "cannot fetch {url}: HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let expected = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.parse::<u64>().ok());
    let Some(body) = response.body() else {
        return Ok(String::new());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("cannot read {url}: {}", js_error(&e)))?;
        let field = |name: &str| js_sys::Reflect::get(&chunk, &name.into()).unwrap_or_default();
        if field("done").is_truthy() {
            break;
        }
        let value: js_sys::Uint8Array = field("value").unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        on_progress(bytes.len() as u64, expected);
    }
    bundle_text(bytes, url).await
}

/// A bundle file's bytes as text: gunzipped when they start as gzip does, else UTF-8.
pub async fn bundle_text(bytes: Vec<u8>, name: &str) -> Result<String, String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return gunzip(&bytes)
            .await
            .map_err(|e| format!("{name} is gzip but cannot be decompressed: {e}"));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (byte {} is not); a bundle is JSON, or JSON gzipped",
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// Decompresses gzip with the browser's own `DecompressionStream` (no inflater in the app).
async fn gunzip(bytes: &[u8]) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|e| js_error(&e))?;
    // A DecompressionStream is itself the {readable, writable} pair pipeThrough takes.
    let inflate: web_sys::ReadableWritablePair = Inflater::new("gzip")
        .map_err(|e| js_error(&e))?
        .unchecked_into();
    let inflated = blob.stream().pipe_through(&inflate);
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&inflated))
        .map_err(|e| js_error(&e))?;
    let text = JsFuture::from(response.text().map_err(|e| js_error(&e))?)
        .await
        .map_err(|e| js_error(&e))?;
    text.as_string().ok_or_else(|| "not text".to_owned())
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `DecompressionStream`, declared here: web-sys offers it only behind its unstable-API flag,
    /// though every current browser has it.
    #[wasm_bindgen(js_name = DecompressionStream, extends = js_sys::Object)]
    type Inflater;

    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Inflater, wasm_bindgen::JsValue>;
}

/// A JavaScript error's message.
fn js_error(error: &wasm_bindgen::JsValue) -> String {
    js_sys::Reflect::get(error, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

/// Whether `url` exists (a HEAD request that answers 2xx).
pub async fn exists(url: &str) -> bool {
    let head = gloo::net::http::RequestBuilder::new(url).method(gloo::net::http::Method::HEAD);
    match head.send().await {
        Ok(response) => response.ok(),
        Err(_) => false,
    }
}

/// The value kept under `key` in the browser's localStorage.
pub fn stored(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Keeps `value` under `key` in localStorage (`None` removes it); whether it was kept.
pub fn store(key: &str, value: Option<&str>) -> bool {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return false;
    };
    match value {
        Some(value) => storage.set_item(key, value).is_ok(),
        None => storage.remove_item(key).is_ok(),
    }
}

/// The value of the page URL's query parameter `name`.
pub fn url_parameter(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// Milliseconds on the page's monotonic clock.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Offers `text` as a file named `name` to download.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| format!("cannot make {name}: {e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|e| format!("cannot make {name}: {e:?}"))?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor".to_owned())?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The page URL's query string (`?view=samples`), or empty.
pub fn page_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Puts `search` in the page's URL, as a new history entry (`push`) or in place of the current
/// one; the page does not reload.
pub fn set_page_search(search: &str, push: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_default();
    let url = format!("{path}{search}");
    if let Ok(history) = window.history() {
        let _ = match push {
            true => history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)),
            false => history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)),
        };
    }
}

/// A listener of the window's Back and Forward (`popstate`), removed when dropped.
pub struct BackForward {
    callback: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>,
}

impl BackForward {
    /// Calls `on_move` after each Back or Forward.
    pub fn listen(mut on_move: impl FnMut() + 'static) -> BackForward {
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |_: web_sys::Event| on_move(),
        );
        if let Some(window) = web_sys::window() {
            let _ = window
                .add_event_listener_with_callback("popstate", callback.as_ref().unchecked_ref());
        }
        BackForward { callback }
    }
}

impl Drop for BackForward {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "popstate",
                self.callback.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Scrolls `element` into view only as far as it takes (`block: "nearest"`): nothing moves when
/// it shows already.
pub fn scroll_into_view(element: &web_sys::Element) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"block".into(), &"nearest".into());
    if let Ok(scroll) = js_sys::Reflect::get(element, &"scrollIntoView".into()) {
        if let Some(scroll) = scroll.dyn_ref::<js_sys::Function>() {
            let _ = scroll.call1(element, &options);
        }
    }
}

/// Whether a click on a link is a plain one (the main button, no modifier key), which the page
/// follows itself; the others open the link as the browser does (a new tab, a new window).
pub fn plain_click(event: &web_sys::MouseEvent) -> bool {
    event.button() == 0
        && !(event.ctrl_key() || event.meta_key() || event.shift_key() || event.alt_key())
}
