fn main() {
    console_error_panic_hook::set_once();
    ie_course::mount();
}
