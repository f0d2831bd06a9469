//! The try-it lab's llama.cpp commands: one copy, shown by the worksheet widget and written into
//! the lesson at build time (figure `lab-commands`), so the two can never disagree.
//!
//! `llama-cli -st` answers one turn and exits (`-no-cnv` was removed from `llama-cli`: it was
//! ignored, and scripted runs waited at the `>` prompt forever). `</dev/null` keeps the model
//! program off the loop's standard input, which `read` is taking the prompts from.

/// Answers every line of `prompts.txt` with both models (the file names are an example: any
/// instruct GGUF files will do), one file of answers per model, each answer under a
/// `### <prompt>` line so that it can be marked against its prompt: greedy decoding, at most
/// 256 tokens, one turn each.
pub const ANSWER_COMMAND: &str = r#"SMALL=model-3b-q4_k_m.gguf
LARGE=model-14b-q4_k_m.gguf
for MODEL in "$SMALL" "$LARGE"; do
  while IFS= read -r p; do
    printf '\n### %s\n\n' "$p"
    llama-cli -m "$MODEL" -st --temp 0 -n 256 -p "$p" </dev/null
  done < prompts.txt > "answers-${MODEL%.gguf}.txt"
done"#;

/// Measures both models' speed. It names the two files itself, so it also runs when copied on
/// its own. Its `tg128` rows are decode (token generation) speed; the `pp512` rows are prompt
/// processing, a different and much larger number.
pub const BENCH_COMMAND: &str = r#"SMALL=model-3b-q4_k_m.gguf
LARGE=model-14b-q4_k_m.gguf
llama-bench -m "$SMALL" -m "$LARGE""#;

/// The whole lab as one shell script, with a comment on each step (the lesson's code block).
pub fn lab_script() -> String {
    format!(
        "# macOS with Homebrew; the llama.cpp README covers other systems\n\
         brew install llama.cpp\n\n\
         # Each prompt, each model: greedy, at most 256 tokens, a single turn (-st).\n\
         # </dev/null stops llama-cli reading the prompts meant for `read`.\n\
         {ANSWER_COMMAND}\n\n\
         # Speed on this machine: decode is the tg128 row (pp512 is prompt processing).\n\
         # This block names the files again, so it also runs on its own.\n\
         {BENCH_COMMAND}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_loop_runs_one_turn_without_stealing_the_prompts() {
        let cmd = ANSWER_COMMAND;
        assert!(cmd.contains("llama-cli -m \"$MODEL\" -st"), "{cmd}");
        assert!(cmd.contains("</dev/null"), "{cmd}");
        // The flag llama.cpp removed (it was ignored and left scripts waiting at a prompt).
        assert!(!cmd.contains("-no-cnv"), "{cmd}");
        assert!(cmd.starts_with("SMALL="), "{cmd}");
        // Each answer sits under its prompt, so the file can be marked prompt by prompt.
        assert!(cmd.contains(r#"printf '\n### %s\n\n' "$p""#), "{cmd}");
    }

    #[test]
    fn the_bench_command_names_its_own_files() {
        // Copied alone (the worksheet has a button for it), it must not rely on the answer
        // loop's variables.
        for var in ["SMALL=", "LARGE="] {
            assert!(BENCH_COMMAND.contains(var), "{BENCH_COMMAND}");
        }
        let set = |cmd: &str, var: &str| {
            cmd.lines()
                .find_map(|l| l.strip_prefix(var))
                .map(str::to_string)
        };
        assert_eq!(set(BENCH_COMMAND, "SMALL="), set(ANSWER_COMMAND, "SMALL="));
        assert_eq!(set(BENCH_COMMAND, "LARGE="), set(ANSWER_COMMAND, "LARGE="));
    }

    #[test]
    fn the_lesson_script_is_the_worksheet_commands_plus_comments() {
        let script = lab_script();
        assert!(script.contains(ANSWER_COMMAND));
        assert!(script.contains(BENCH_COMMAND));
        assert!(script.contains("tg128"));
    }
}
