//! Light and dark themes. The page follows the system setting through CSS
//! (`color-scheme: light dark`); the toggle sets `data-theme` on `<html>` to override it, and
//! the choice is stored. `js/boot.js` applies a stored choice before first paint.

use crate::services::storage::Persist;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A theme the learner chose over the system's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Dark text on a light page.
    Light,
    /// Light text on a dark page.
    Dark,
}

const STORE_NAME: &str = "theme";
const STORE_VERSION: u32 = 1;

fn system_prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

fn apply(theme: Option<Theme>) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match theme {
        Some(Theme::Light) => root.set_attribute("data-theme", "light"),
        Some(Theme::Dark) => root.set_attribute("data-theme", "dark"),
        None => root.remove_attribute("data-theme"),
    };
}

/// A button that switches between light and dark, remembered across visits.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let persist = Persist::from_context();
    let chosen = RwSignal::new(persist.load::<Theme>(STORE_NAME, STORE_VERSION, |_, _| None));
    // The document is the outside world: an effect keeps its attribute in step.
    Effect::new(move |_| apply(chosen.get()));
    let is_dark = move || match chosen.get() {
        Some(t) => t == Theme::Dark,
        None => system_prefers_dark(),
    };
    let toggle = move |_| {
        let next = if is_dark() { Theme::Light } else { Theme::Dark };
        chosen.set(Some(next));
        persist.save(STORE_NAME, STORE_VERSION, &next);
    };
    view! {
        <button
            type="button"
            class="theme-toggle"
            data-testid="theme-toggle"
            aria-label="Dark theme"
            aria-pressed=move || if is_dark() { "true" } else { "false" }
            on:click=toggle
        >
            // A sun or a moon by `aria-pressed` (`.icon` in style/main.css).
            <span class="icon" aria-hidden="true"></span>
            <span class="label-text">" Dark theme"</span>
        </button>
    }
}
