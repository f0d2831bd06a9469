// The widget registry: one line per widget, `CONST "directive-name" => module::mount [parameter keys]`,
// then the names of the widgets drawn at build time.
//
// This file is read twice: by the app (src/widgets.rs), where the macro builds the function
// that mounts a widget by name and the list the page's parameters are checked against, and by
// the build (build/main.rs), where the same macro only collects the names and keys so that a
// lesson naming an unknown widget or parameter fails.
widgets! {
    RECALL "recall" => recall::mount ["lesson"],
    RECALL_DECK "recall-deck" => recall::mount_deck [],
    WEIGHT_MEMORY "weight-memory" => weight_memory::mount ["params", "precision", "bits", "gpu-gb"],
    DECODE_CEILING "decode-ceiling" => decode_ceiling::mount ["bandwidth", "a-gb", "b-gb"],
    FLEET_SWAP "fleet-swap" => fleet_swap::mount ["requests", "tokens", "large-gb", "small-gb", "gpus"],
    BREAK_EVEN "break-even" => break_even::mount ["api-price", "gpu-hourly", "throughput", "utilisation", "volume"],
    MINI_EVAL "mini-eval" => mini_eval::mount [],
    WORKLOAD_SORT "workload-sort" => workload_sort::mount [],
    LATENCY "latency" => latency::mount [],
    TRY_IT "try-it" => try_it::mount [],
    DISTILLATION "distillation" => distillation::mount ["preset"],
}

// The widgets the build draws into the page (the diagrams, `src/widgets/diagrams.rs`): no
// widgets module carries them, their markup travels with the lesson's text, and a small script
// (`style/diagrams.js`) answers their clicks and keys. They take no parameters.
drawn! {
    "five-inputs",
    "fine-tune-diagram",
    "distill-diagram",
    "decision-path",
    "chapter-map",
}
