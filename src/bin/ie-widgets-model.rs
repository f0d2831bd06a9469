//! A widgets module (see `src/widgets/modules.rs`).
ie_course::widgets_module!(
    ie_course::widgets::modules::MODEL,
    ie_course::widgets::modules::MODEL_CARDS
);
