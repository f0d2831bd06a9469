//! What the eval says: both accuracies and McNemar's test, where the cases went, and the
//! changed cases token by token. Views of the editor's summary; they change nothing.

use crate::logic::eval::editor::pages::CaseFilter;
use crate::logic::eval::editor::{
    accuracy_text, changed_text, BucketEntry, ChangedCase, EvalEditor, System,
};
use crate::logic::eval::tally::Tally;
use crate::logic::eval::{self, Bucket, DiffRun};
use crate::logic::format;
use leptos::prelude::*;

/// Names listed per bucket; the rest are counted, and the case list can show them all.
const BUCKET_LIMIT: usize = 50;
/// Changed cases whose diff is shown at first; a button shows as many more each time.
const DIFF_STEP: usize = 20;

/// One accuracy, `label` with its figure (`data-testid` `testid`), and its count and interval
/// under it.
fn accuracy_view(
    label: &'static str,
    testid: &'static str,
    system: System,
    tally: Memo<Tally>,
) -> impl IntoView {
    view! {
        <div class="output">
            <span class="output-label">{label}</span>
            <output class="output-value" data-testid=testid aria-live="polite">
                {move || tally.with(|s| accuracy_text(s, system).0)}
            </output>
            <span class="output-note">{move || tally.with(|s| accuracy_text(s, system).1)}</span>
        </div>
    }
}

/// Both accuracies, McNemar's p, and the two sentences that read them.
#[component]
pub fn Outputs(
    /// The eval's counts.
    tally: Memo<Tally>,
) -> impl IntoView {
    // McNemar's p is worked out only when the regressed or fixed count changes.
    let split = Memo::new(move |_| tally.with(|t| (t.regressed(), t.fixed())));
    let p = Memo::new(move |_| {
        let (b, c) = split.get();
        eval::mcnemar_exact_p(b, c)
    });
    let passes =
        Memo::new(move |_| tally.with(|t| (t.baseline_passes, t.candidate_passes, t.cases)));
    view! {
        <div class="outputs">
            {accuracy_view("Baseline accuracy", "eval-acc-baseline", System::Baseline, tally)}
            {accuracy_view("Candidate accuracy", "eval-acc-candidate", System::Candidate, tally)}
            <div class="output">
                <span class="output-label">"McNemar p (exact)"</span>
                <output class="output-value" data-testid="eval-mcnemar" aria-live="polite">
                    {move || eval::p_value_text(p.get())}
                </output>
                <span class="output-note">{move || tally.with(changed_text)}</span>
            </div>
        </div>
        <p class="eval-sentence" data-testid="eval-interval-note">
            {move || {
                let (b, c, n) = passes.get();
                eval::interval_sentence(b, c, n)
            }}
        </p>
        <p class="eval-sentence" data-testid="eval-mcnemar-note">
            {move || {
                let (b, c) = split.get();
                eval::mcnemar_sentence_with(b, c, p.get())
            }}
        </p>
    }
}

/// The cases of one bucket, by name: the first [`BUCKET_LIMIT`], and a button that lists
/// them all in the case list below.
fn bucket_view(
    editor: RwSignal<EvalEditor>,
    tally: Memo<Tally>,
    bucket: Bucket,
    show: Callback<CaseFilter>,
) -> impl IntoView {
    // Redrawn only when what it lists changes, though read again on every edit (a name).
    let items = Memo::new(move |_| editor.with(|e| e.bucket_entries(bucket, BUCKET_LIMIT)));
    let count = Memo::new(move |_| tally.with(|t| t.count(bucket)));
    view! {
        <section class="eval-bucket" data-bucket=bucket.id() data-testid=format!("eval-bucket-{}", bucket.id())>
            <h5 class="eval-bucket-title">
                <span class="eval-bucket-count">{move || format::count(count.get())}</span>
                " "
                {bucket.label()}
                <span class="eval-bucket-hint">{bucket.hint()}</span>
            </h5>
            <ul class="eval-bucket-list">
                {move || items.with(Vec::is_empty).then(|| view! { <li class="eval-bucket-empty">"none"</li> })}
                // An entry is its own key: only entries that came or changed are drawn.
                <For each=move || items.get() key=BucketEntry::clone let:item>
                    <li data-case=item.name class:critical=item.critical title=item.critical.then_some("critical case")>
                        {item.shown}
                    </li>
                </For>
            </ul>
            {move || {
                let more = count.get().saturating_sub(BUCKET_LIMIT);
                (more > 0).then(|| view! {
                    <p class="eval-bucket-more">
                        {format!("and {} more. ", format::count(more))}
                        <button type="button" class="eval-link-button" data-testid="eval-bucket-show" on:click=move |_| show.run(CaseFilter::Bucket(bucket))>
                            "List them all below"
                        </button>
                    </p>
                })
            }}
        </section>
    }
}

/// Where the cases went: the four buckets.
#[component]
pub fn Buckets(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its counts.
    tally: Memo<Tally>,
    /// Shows one bucket's cases in the case list.
    #[prop(into)]
    show: Callback<CaseFilter>,
) -> impl IntoView {
    view! {
        <div class="eval-buckets">
            {Bucket::ALL
                .into_iter()
                .map(|bucket| bucket_view(editor, tally, bucket, show))
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

/// One changed case: both systems' SQL as a token diff, and the reference.
fn diff_view(c: ChangedCase) -> impl IntoView {
    let regressed = c.bucket == Bucket::Regressed;
    let (base_state, cand_state) = if regressed {
        ("pass", "fail")
    } else {
        ("fail", "pass")
    };
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
}

/// The changed cases, each as a token diff of the two systems' SQL, and the legend.
#[component]
pub fn Diffs(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its counts.
    tally: Memo<Tally>,
) -> impl IntoView {
    // The first `limit` changed cases: read again on every edit, redrawn only if they changed.
    let limit = RwSignal::new(DIFF_STEP);
    let changed = Memo::new(move |_| {
        let limit = limit.get();
        editor.with(|e| e.changed_cases(limit))
    });
    let total = Memo::new(move |_| tally.with(Tally::changed));
    view! {
        <div class="eval-diffs">
            {move || changed.with(Vec::is_empty).then(|| view! {
                <p class="widget-note">"No case changed outcome: both systems pass and fail the same cases."</p>
            })}
            // Keyed by what each is drawn from: an edit redraws the cases it changed, no other.
            <For each=move || changed.get() key=ChangedCase::key let:c>
                {diff_view(c)}
            </For>
            {move || {
                let (shown, total) = (changed.with(Vec::len), total.get());
                (total > shown).then(|| view! {
                    <p class="widget-note eval-diff-more" data-testid="eval-diff-more">
                        {format!("{} of {} changed cases shown. ", format::count(shown), format::count(total))}
                        <button type="button" class="eval-link-button" on:click=move |_| limit.update(|l| *l += DIFF_STEP)>
                            {format!("Show {DIFF_STEP} more")}
                        </button>
                    </p>
                })
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
