//! The measuring lab's last result: the lab shows it and replaces it after each run, and keeps
//! its bandwidth apart ([`Device`]) for the decode-ceiling calculator, which offers it as a
//! device ("this browser, one core") on another lesson's page, from a module that does not
//! carry the lab. Each is read from storage once per module, so that a stored value that cannot
//! be used is reported and backed up once.

use crate::logic::lab_run::{
    Device, LabResult, DEVICE_STORE_NAME, DEVICE_STORE_VERSION, STORE_NAME, STORE_VERSION,
};
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

/// Keeps `result` (in storage and for the other widgets), and its bandwidth for the decode
/// ceiling.
pub fn keep(persist: Persist, result: LabResult) {
    persist.save(STORE_NAME, STORE_VERSION, &result);
    if let Some(device) = result.device() {
        persist.save(DEVICE_STORE_NAME, DEVICE_STORE_VERSION, &device);
        measured_device(persist).set(device.usable());
    }
    last_result(persist).set(Some(result));
}

thread_local! {
    static DEVICE: OnceCell<ArcRwSignal<Option<f64>>> = const { OnceCell::new() };
}

/// The read bandwidth the lab last measured in this browser, GB/s, if any.
pub fn measured_device(persist: Persist) -> ArcRwSignal<Option<f64>> {
    DEVICE.with(|cell| {
        cell.get_or_init(|| {
            ArcRwSignal::new(
                persist
                    .load::<Device>(DEVICE_STORE_NAME, DEVICE_STORE_VERSION, |_, _| None)
                    .and_then(Device::usable),
            )
        })
        .clone()
    })
}
