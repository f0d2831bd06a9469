//! What the shell (`app`) and the widgets both need from the browser, each in one place: stored
//! data, the address bar, downloads, timers, and the page's own conventions (the card a widget
//! sits in, fresh ids, whether the reader is typing).
//!
//! The layers import downwards only: `logic` ← `services` ← `app` and `widgets`. Nothing here
//! imports `app` or `widgets`, and the two never import each other; they meet in the crate root
//! and in the binaries (`tests/layers.rs` holds the rule).

pub mod download;
pub mod page;
pub mod storage;
pub mod timers;
pub mod url_state;
