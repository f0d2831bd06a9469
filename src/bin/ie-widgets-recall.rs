//! A widgets module (see `src/widgets/modules.rs`).
ie_course::widgets_module!(
    ie_course::widgets::modules::RECALL_PAGE,
    ie_course::logic::recall::WHOLE_DECK
);
