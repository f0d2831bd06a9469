//! A widgets module (see `src/widgets/modules.rs`).
ie_course::widgets_module!(
    ie_course::widgets::modules::SHARED,
    ie_course::widgets::modules::SHARED_CARDS
);
