//! The notices about stored data, shown at the top of the page (see `services::storage`).

use crate::services::storage::Persist;
use leptos::prelude::*;

/// The notices, as a live region at the top of the page.
#[component]
pub fn NoticeArea() -> impl IntoView {
    let persist = Persist::from_context();
    view! {
        <div class="notices" role="status" aria-live="polite">
            <For each=move || persist.notices().get() key=|n| n.id let:notice>
                <div class="notice" data-testid="storage-notice">
                    <p>{notice.text.clone()}</p>
                    <button
                        type="button"
                        class="notice-close"
                        aria-label="Dismiss this notice"
                        on:click=move |_| persist.dismiss(notice.id)
                    >
                        "\u{d7}"
                    </button>
                </div>
            </For>
        </div>
    }
}
