//! A widgets module (see `src/widgets/modules.rs`).
ie_course::widgets_module!(
    ie_course::widgets::modules::LATENCY_PAGE,
    ie_course::widgets::modules::LATENCY_CARDS
);
