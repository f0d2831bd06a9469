//! The measuring lab's last result, one per widgets module: the lab shows it and replaces it
//! after each run; the decode-ceiling calculator offers its bandwidth as a device ("this
//! browser, one core"). Read from storage once, by whichever of them mounts first, so that a
//! stored value that cannot be used is reported and backed up once.

use crate::logic::lab_run::{LabResult, STORE_NAME, STORE_VERSION};
use crate::services::storage::Persist;
use leptos::prelude::*;
use std::cell::OnceCell;

thread_local! {
    static LAST: OnceCell<ArcRwSignal<Option<LabResult>>> = const { OnceCell::new() };
}

/// The last result, as a signal every widget of the module shares.
pub fn last_result(persist: Persist) -> ArcRwSignal<Option<LabResult>> {
    LAST.with(|cell| {
        cell.get_or_init(|| {
            ArcRwSignal::new(persist.load::<LabResult>(STORE_NAME, STORE_VERSION, |_, _| None))
        })
        .clone()
    })
}

/// Keeps `result` (in storage and for the other widgets).
pub fn keep(persist: Persist, result: LabResult) {
    persist.save(STORE_NAME, STORE_VERSION, &result);
    last_result(persist).set(Some(result));
}
