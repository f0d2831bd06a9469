// The widget registry: one line per widget, `"directive-name" => module::mount [parameter keys]`.
//
// This file is read twice: by the app (src/widgets.rs), where the macro builds the function
// that mounts a widget by name and the list the page's parameters are checked against, and by
// the build (build/main.rs), where the same macro only collects the names and keys so that a
// lesson naming an unknown widget or parameter fails.
widgets! {
    "recall" => recall::mount ["lesson"],
    "weight-memory" => weight_memory::mount ["params", "precision", "bits", "gpu-gb"],
    "decode-ceiling" => decode_ceiling::mount ["bandwidth", "a-gb", "b-gb"],
    "fleet-swap" => fleet_swap::mount ["requests", "tokens", "large-gb", "small-gb", "gpus"],
    "break-even" => break_even::mount ["api-price", "gpu-hourly", "throughput", "utilisation", "volume"],
    "mini-eval" => mini_eval::mount [],
    "workload-sort" => workload_sort::mount [],
    "latency" => latency::mount [],
    "try-it" => try_it::mount [],
    "distillation" => distillation::mount ["preset"],
    "five-inputs" => diagrams::mount_five_inputs [],
    "fine-tune-diagram" => diagrams::mount_fine_tune [],
    "distill-diagram" => diagrams::mount_distill [],
    "decision-path" => diagrams::mount_decision_path [],
    "chapter-map" => diagrams::mount_chapter_map [],
}
