//! The widgets module with every widget, for the whole-chapter print page (and any page whose
//! widgets no smaller module carries). See `src/widgets/modules.rs`.
ie_course::widgets_module!(
    ie_course::widgets::ALL,
    ie_course::logic::recall::WHOLE_DECK
);
