// The widget registry: one line per widget, `CONST "directive-name" => module::mount [parameter keys]`,
// then the names of the widgets drawn at build time.
//
// This file is read twice: by the app (src/widgets.rs), where the macro builds the function
// that mounts a widget by name and the list the page's parameters are checked against, and by
// the build (build/main.rs), where the same macro only collects the names and keys so that a
// lesson naming an unknown widget or parameter fails. The functions at the end say what a
// placed widget needs from a module, for both.
widgets! {
    RECALL "recall" => recall::mount ["lesson"],
    RECALL_DECK "recall-deck" => recall::mount_deck [],
    WEIGHT_MEMORY "weight-memory" => weight_memory::mount ["params", "precision", "bits", "gpu-gb"],
    DECODE_CEILING "decode-ceiling" => decode_ceiling::mount ["bandwidth", "a-gb", "b-gb"],
    DECODE_LAB "decode-lab" => decode_lab::mount [],
    FLEET_SWAP "fleet-swap" => fleet_swap::mount ["requests", "tokens", "large-gb", "small-gb", "gpus"],
    BREAK_EVEN "break-even" => break_even::mount ["api-price", "gpu-hourly", "throughput", "utilisation", "volume"],
    MINI_EVAL "mini-eval" => mini_eval::mount [],
    WORKLOAD_SORT "workload-sort" => workload_sort::mount [],
    LATENCY "latency" => latency::mount [],
    TRY_IT "try-it" => try_it::mount [],
    DISTILLATION "distillation" => distillation::mount ["preset"],
    DISTILL_LAB "distill-lab" => distill_lab::mount [],
}

// The widgets the build draws into the page (the diagrams, `src/app/diagrams.rs`): no
// widgets module carries them, their markup travels with the lesson's text, and a small script
// (`js/diagrams.js`) answers their clicks and keys. They take no parameters.
drawn! {
    "five-inputs",
    "fine-tune-diagram",
    "distill-diagram",
    "decision-path",
    "chapter-map",
}

/// The name a widgets module that carries lesson `slug`'s recall cards goes by for the loader.
#[allow(dead_code)] // the build's and the native tests'; a module never reads it
pub fn cards_needed(slug: &str) -> String {
    format!("cards:{slug}")
}

/// What widget `name`, placed with `params`, needs from the widgets module that serves it, as
/// the loader matches modules (space-separated): its name, and for a lesson's recall form that
/// lesson's cards (a module carries only the cards of the lessons it serves). The build writes
/// it into each placement (`WidgetUse::needs`), so the app works nothing out.
#[allow(dead_code)] // the build's and the native tests'
pub fn widget_needs<'a>(
    name: &str,
    params: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    let lesson = params
        .into_iter()
        .find(|(k, _)| *k == "lesson")
        .map(|(_, v)| v);
    match lesson {
        Some(slug) if name == "recall" => format!("{name} {}", cards_needed(slug)),
        _ => name.to_string(),
    }
}
