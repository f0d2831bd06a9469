//! The registry's drawn widgets (what lessons may place, `widgets::DRAWN`) are exactly the
//! diagrams the shell's pages draw (`app::diagrams`): the two layers meet only here, outside
//! the crate, so that no module of it imports from a layer above its own.

#[test]
fn every_drawn_widget_is_a_diagram_and_every_diagram_is_registered() {
    let drawn: Vec<&str> = ie_course::widgets::DRAWN.to_vec();
    let diagrams: Vec<&str> = ie_course::app::diagrams::data::names().collect();
    assert_eq!(drawn.len(), diagrams.len());
    for name in drawn {
        assert!(diagrams.contains(&name), "{name}");
    }
}
