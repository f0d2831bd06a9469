//! What the eval says: both accuracies and McNemar's test, where the cases went, and the
//! changed cases token by token. Views of the editor's summary; they change nothing.

use crate::logic::eval::editor::{accuracy_text, changed_text, EvalEditor, System};
use crate::logic::eval::{self, Bucket, DiffRun, Summary};
use leptos::prelude::*;

/// One accuracy, `label` with its figure (`data-testid` `testid`), and its count and interval
/// under it.
fn accuracy_view(
    label: &'static str,
    testid: &'static str,
    system: System,
    summary: Memo<Summary>,
) -> impl IntoView {
    view! {
        <div class="output">
            <span class="output-label">{label}</span>
            <output class="output-value" data-testid=testid aria-live="polite">
                {move || summary.with(|s| accuracy_text(s, system).0)}
            </output>
            <span class="output-note">{move || summary.with(|s| accuracy_text(s, system).1)}</span>
        </div>
    }
}

/// Both accuracies, McNemar's p, and the two sentences that read them.
#[component]
pub fn Outputs(
    /// The eval's figures.
    summary: Memo<Summary>,
) -> impl IntoView {
    view! {
        <div class="outputs">
            {accuracy_view("Baseline accuracy", "eval-acc-baseline", System::Baseline, summary)}
            {accuracy_view("Candidate accuracy", "eval-acc-candidate", System::Candidate, summary)}
            <div class="output">
                <span class="output-label">"McNemar p (exact)"</span>
                <output class="output-value" data-testid="eval-mcnemar" aria-live="polite">
                    {move || eval::p_value_text(summary.with(|s| s.mcnemar_p))}
                </output>
                <span class="output-note">{move || summary.with(changed_text)}</span>
            </div>
        </div>
        <p class="eval-sentence" data-testid="eval-interval-note">
            {move || summary.with(|s| eval::interval_sentence(s.baseline_passes, s.candidate_passes, s.cases))}
        </p>
        <p class="eval-sentence" data-testid="eval-mcnemar-note">
            {move || summary.with(|s| eval::mcnemar_sentence(s.buckets.regressed.len(), s.buckets.fixed.len()))}
        </p>
    }
}

/// The cases of one bucket, by name.
fn bucket_view(
    editor: RwSignal<EvalEditor>,
    summary: Memo<Summary>,
    bucket: Bucket,
) -> impl IntoView {
    view! {
        <section class="eval-bucket" data-bucket=bucket.id() data-testid=format!("eval-bucket-{}", bucket.id())>
            <h5 class="eval-bucket-title">
                <span class="eval-bucket-count">{move || summary.with(|s| s.buckets.get(bucket).len())}</span>
                " "
                {bucket.label()}
                <span class="eval-bucket-hint">{bucket.hint()}</span>
            </h5>
            <ul class="eval-bucket-list">
                {move || {
                    let items = summary.with(|s| editor.with(|e| e.bucket_entries(s, bucket)));
                    if items.is_empty() {
                        view! { <li class="eval-bucket-empty">"none"</li> }.into_any()
                    } else {
                        items
                            .into_iter()
                            .map(|item| {
                                view! {
                                    <li data-case=item.name class:critical=item.critical title=item.critical.then_some("critical case")>
                                        {item.shown}
                                    </li>
                                }
                            })
                            .collect_view()
                            .into_any()
                    }
                }}
            </ul>
        </section>
    }
}

/// Where the cases went: the four buckets.
#[component]
pub fn Buckets(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its figures.
    summary: Memo<Summary>,
) -> impl IntoView {
    view! {
        <div class="eval-buckets">
            {Bucket::ALL
                .into_iter()
                .map(|bucket| bucket_view(editor, summary, bucket))
                .collect_view()}
        </div>
    }
}

/// One side of a diff as text spans: changed runs as `<del>` (baseline side) or `<ins>`.
fn runs_view(runs: Vec<DiffRun>, added: bool) -> impl IntoView {
    if runs.is_empty() {
        return view! { <span class="eval-empty">"(empty)"</span> }.into_any();
    }
    runs.into_iter()
        .map(|r| match (r.changed, added) {
            (false, _) => view! { <span>{r.text}</span> }.into_any(),
            (true, false) => view! { <del class="eval-del">{r.text}</del> }.into_any(),
            (true, true) => view! { <ins class="eval-ins">{r.text}</ins> }.into_any(),
        })
        .collect_view()
        .into_any()
}

/// The changed cases, each as a token diff of the two systems' SQL, and the legend.
#[component]
pub fn Diffs(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its figures.
    summary: Memo<Summary>,
) -> impl IntoView {
    let changed = Memo::new(move |_| summary.with(|s| editor.with(|e| e.changed_cases(s))));
    view! {
        <div class="eval-diffs">
            {move || {
                let list = changed.get();
                if list.is_empty() {
                    return view! {
                        <p class="widget-note">"No case changed outcome: both systems pass and fail the same cases."</p>
                    }
                    .into_any();
                }
                list.into_iter()
                    .map(|c| {
                        let regressed = c.bucket == Bucket::Regressed;
                        let (base_state, cand_state) = if regressed { ("pass", "fail") } else { ("fail", "pass") };
                        view! {
                            <article class="eval-diff" class:regressed=regressed>
                                <h5 class="eval-diff-title">
                                    <span class="eval-badge" data-bucket=c.bucket.id()>{c.bucket.label()}</span>
                                    " "
                                    <span class="eval-diff-name">{c.name}</span>
                                    {c.critical.then(|| view! { <span class="eval-tag">"critical"</span> })}
                                </h5>
                                {(!c.question.trim().is_empty()).then(|| view! { <p class="eval-diff-question">{c.question}</p> })}
                                <div class="eval-diff-sides">
                                    <div class="eval-diff-side">
                                        <span class="eval-diff-label">"Baseline \u{b7} " {base_state}</span>
                                        <code class="eval-sql">{runs_view(c.baseline, false)}</code>
                                    </div>
                                    <div class="eval-diff-side">
                                        <span class="eval-diff-label">"Candidate \u{b7} " {cand_state}</span>
                                        <code class="eval-sql">{runs_view(c.candidate, true)}</code>
                                    </div>
                                </div>
                                <p class="eval-diff-ref">
                                    <span class="eval-diff-label">"Reference"</span>
                                    <code class="eval-sql">{c.reference}</code>
                                </p>
                                {c.same_sql.then(|| view! {
                                    <p class="widget-note">"Both systems wrote the same SQL; the verdicts differ because at least one was set by hand."</p>
                                })}
                            </article>
                        }
                    })
                    .collect_view()
                    .into_any()
            }}
            <p class="widget-note eval-legend">
                <del class="eval-del">"struck out"</del>
                ": only in the baseline\u{2019}s SQL; "
                <ins class="eval-ins">"underlined"</ins>
                ": only in the candidate\u{2019}s."
            </p>
        </div>
    }
}
