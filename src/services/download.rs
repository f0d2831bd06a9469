//! Files the reader takes away: the one place the widgets make `blob:` URLs and downloads.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The browser's `Blob`, bound here so that the crate's web-sys features stay as they are.
    type Blob;
    #[wasm_bindgen(constructor)]
    fn new(parts: &js_sys::Array, options: &js_sys::Object) -> Blob;
    #[wasm_bindgen(js_namespace = URL, js_name = createObjectURL)]
    fn create_object_url(blob: &Blob) -> String;
    #[wasm_bindgen(js_namespace = URL, js_name = revokeObjectURL)]
    fn revoke_object_url(url: &str);
}

/// A `blob:` URL holding `text` with MIME type `mime`, for a download link; give it back with
/// [`release`] once the link changes.
pub fn blob_url(text: &str, mime: &str) -> String {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"type".into(), &mime.into());
    create_object_url(&Blob::new(&parts, &options))
}

/// Frees a URL made by [`blob_url`].
pub fn release(url: &str) {
    revoke_object_url(url);
}

/// Starts a download of `text` (MIME type `mime`) as a file named `name`.
pub fn save(name: &str, mime: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|el| el.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    let url = blob_url(text, mime);
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Some browsers read the blob after the click returns: free it a minute later.
    leptos::prelude::set_timeout(move || release(&url), std::time::Duration::from_secs(60));
}
