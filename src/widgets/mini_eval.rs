//! The mini eval: the lesson's ten text-to-SQL cases, editable, with both accuracies, the cases
//! that changed (each as a token diff), McNemar's test and an accept-or-reject verdict.
//!
//! The maths is in `calc::eval`; this file wires it to signals. Every piece of user text is
//! rendered as text (never `inner_html`).

use super::controls::{unique_id, NumberField, WidgetCard};
use super::download;
use crate::app::persist::Persist;
use crate::content::WidgetParams;
use crate::figures::LESSON_EVAL_JSON;
use crate::logic::eval::{self, Bucket, DiffRun, EvalCase, EvalSet, Verdict};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Storage name and schema version of the reader's edits.
const STORE_NAME: &str = "mini-eval";
const STORE_VERSION: u32 = 1;
/// The tolerance a fresh eval starts with, in percentage points.
const DEFAULT_TOLERANCE: &str = "0";

/// What is stored: the eval as edited and the tolerance as typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Saved {
    eval: EvalSet,
    tolerance: String,
}

/// The lesson's eval, from the same file the lesson's figures are computed from.
fn lesson_eval() -> EvalSet {
    eval::parse_eval_json(LESSON_EVAL_JSON).unwrap_or_default()
}

fn lesson_saved() -> Saved {
    Saved {
        eval: lesson_eval(),
        tolerance: DEFAULT_TOLERANCE.into(),
    }
}

/// The id a verdict has in a `<select>`.
fn verdict_id(v: Verdict) -> &'static str {
    match v {
        Verdict::Auto => "auto",
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
    }
}

fn verdict_from_id(id: &str) -> Verdict {
    match id {
        "pass" => Verdict::Pass,
        "fail" => Verdict::Fail,
        _ => Verdict::Auto,
    }
}

/// A case's name for headings: its name, or "case N" when it has none.
fn display_name(case: &EvalCase, index: usize) -> String {
    if case.name.trim().is_empty() {
        format!("case {}", index + 1)
    } else {
        case.name.clone()
    }
}

/// Moves the item at `from` by `by` places (−1 up, +1 down), if it stays in range.
fn move_item<T>(items: &mut [T], from: usize, by: isize) -> bool {
    let Some(to) = from.checked_add_signed(by) else {
        return false;
    };
    if from >= items.len() || to >= items.len() {
        return false;
    }
    items.swap(from, to);
    true
}

/// A case in the editor: a stable id (for keyed rendering) and its own signal, so that typing
/// in one case redraws only that row.
#[derive(Clone, Copy)]
struct Row {
    id: u32,
    case: RwSignal<EvalCase>,
}

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <MiniEval /> }.into_any()
}

/// A changed case, as the diff list shows it.
#[derive(Debug, Clone, PartialEq)]
struct Changed {
    name: String,
    question: String,
    reference: String,
    bucket: Bucket,
    critical: bool,
    baseline: Vec<DiffRun>,
    candidate: Vec<DiffRun>,
    same_sql: bool,
}

/// The eval widget.
#[component]
pub fn MiniEval() -> impl IntoView {
    let persist = expect_context::<Persist>();
    let owner = Owner::current();
    let start = persist
        .load::<Saved>(STORE_NAME, STORE_VERSION, |_, _| None)
        .unwrap_or_else(lesson_saved);

    let next_id = StoredValue::new(0u32);
    // Rows are created in event handlers too; the widget's owner keeps their signals.
    let new_row = move |case: EvalCase| {
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        let case = match &owner {
            Some(o) => o.with(|| RwSignal::new(case)),
            None => RwSignal::new(case),
        };
        Row { id, case }
    };
    let rows = RwSignal::new(
        start
            .eval
            .cases
            .iter()
            .cloned()
            .map(new_row.clone())
            .collect::<Vec<_>>(),
    );
    let schema = RwSignal::new(start.eval.schema.clone());
    let tolerance_text = RwSignal::new(start.tolerance.clone());

    let cases =
        Memo::new(move |_| rows.with(|rs| rs.iter().map(|r| r.case.get()).collect::<Vec<_>>()));
    let current = move || Saved {
        eval: EvalSet {
            version: eval::EVAL_FORMAT_VERSION,
            schema: schema.get(),
            cases: cases.get(),
        },
        tolerance: tolerance_text.get(),
    };

    // Save every change, but not the untouched lesson eval on first load.
    let loaded = StoredValue::new(false);
    Effect::new(move |_| {
        let data = current();
        if loaded.get_value() {
            persist.save(STORE_NAME, STORE_VERSION, &data);
        }
        loaded.set_value(true);
    });

    let restore = {
        let new_row = new_row.clone();
        move |saved: Saved| {
            rows.set(saved.eval.cases.into_iter().map(new_row.clone()).collect());
            schema.set(saved.eval.schema);
            tolerance_text.set(saved.tolerance);
        }
    };

    // The last replaced state, for one step of undo after a reset, import or removal.
    let undo = RwSignal::new(None::<(Saved, String)>);
    let remember = move |what: String| {
        undo.set(Some((
            current_untracked(rows, schema, tolerance_text),
            what,
        )))
    };

    let summary = Memo::new(move |_| cases.with(|c| eval::summarize(c)));
    let tolerance = Memo::new(move |_| eval::parse_tolerance(&tolerance_text.get()));
    let decision = Memo::new(
        move |prev: Option<&Option<eval::Decision>>| match tolerance.get() {
            Ok(t) => Some(cases.with(|c| eval::decide(c, t))),
            Err(_) => prev.cloned().flatten(),
        },
    );
    let tolerance_error =
        Signal::derive(move || tolerance.with(|t| t.as_ref().err().map(|e| e.message.clone())));
    let stale = move || tolerance.with(Result::is_err);

    let changed = Memo::new(move |_| {
        cases.with(|cs| {
            summary.with(|s| {
                s.buckets
                    .regressed
                    .iter()
                    .chain(&s.buckets.fixed)
                    .map(|&i| {
                        let c = &cs[i];
                        let (baseline, candidate) =
                            eval::diff_sides(&c.baseline_sql, &c.candidate_sql);
                        Changed {
                            name: display_name(c, i),
                            question: c.question.clone(),
                            reference: c.reference_sql.clone(),
                            bucket: if s.buckets.regressed.contains(&i) {
                                Bucket::Regressed
                            } else {
                                Bucket::Fixed
                            },
                            critical: c.critical,
                            same_sql: !baseline.iter().chain(&candidate).any(|r| r.changed),
                            baseline,
                            candidate,
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    });

    let accuracy = move |baseline: bool| {
        summary.with(|s| {
            if s.cases == 0 {
                return ("\u{2014}".to_string(), "no cases".to_string());
            }
            let passes = if baseline {
                s.baseline_passes
            } else {
                s.candidate_passes
            };
            let (lo, hi) = eval::wilson_interval(passes, s.cases, eval::Z_95);
            (
                eval::percent_text(eval::accuracy(passes, s.cases)),
                format!(
                    "{passes} of {} \u{b7} 95% interval {}\u{2013}{}",
                    s.cases,
                    eval::percent_text(lo).trim_end_matches('%'),
                    eval::percent_text(hi)
                ),
            )
        })
    };

    // Export links: blob URLs of the eval and its results, the old ones released. Made when
    // the reader clicks (so a download is always current), and once edits pause, so the links
    // stay current for anyone who copies them; never on every keystroke.
    let json_link = NodeRef::<leptos::html::A>::new();
    let csv_link = NodeRef::<leptos::html::A>::new();
    let export_urls = StoredValue::new(None::<(String, String)>);
    let refresh_exports = move || {
        let set = EvalSet {
            version: eval::EVAL_FORMAT_VERSION,
            schema: schema.get_untracked(),
            cases: cases.get_untracked(),
        };
        let json = download::blob_url(&eval::eval_json(&set), "application/json");
        let csv = download::blob_url(&eval::results_csv(&set.cases), "text/csv");
        if let Some((old_json, old_csv)) = export_urls.get_value() {
            download::release(&old_json);
            download::release(&old_csv);
        }
        if let Some(a) = json_link.get_untracked() {
            a.set_href(&json);
        }
        if let Some(a) = csv_link.get_untracked() {
            a.set_href(&csv);
        }
        export_urls.set_value(Some((json, csv)));
    };
    let export_timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |first: Option<()>| {
        cases.track();
        schema.track();
        if first.is_none() {
            refresh_exports();
            return;
        }
        if let Some(t) = export_timer.get_value() {
            t.clear();
        }
        export_timer.set_value(
            set_timeout_with_handle(refresh_exports, std::time::Duration::from_millis(300)).ok(),
        );
    });
    on_cleanup(move || {
        // A refresh still waiting must not run once the widget's signals are gone.
        if let Some(t) = export_timer.get_value() {
            t.clear();
        }
        if let Some((json, csv)) = export_urls.get_value() {
            download::release(&json);
            download::release(&csv);
        }
    });

    let import_text = RwSignal::new(String::new());
    let import_result = RwSignal::new(None::<Result<String, String>>);
    let apply_import = {
        let restore = restore.clone();
        move |_| {
            let now = current_untracked(rows, schema, tolerance_text);
            match eval::import_text(&now.eval, &import_text.get_untracked()) {
                Ok(done) => {
                    remember("import".into());
                    restore(Saved {
                        eval: done.set,
                        tolerance: now.tolerance,
                    });
                    import_result.set(Some(Ok(done.message)));
                }
                Err(e) => {
                    import_result.set(Some(Err(format!("{} Nothing was changed.", e.message))))
                }
            }
        }
    };
    let reset = {
        let restore = restore.clone();
        move |_| {
            remember("reset".into());
            restore(lesson_saved());
            import_result.set(None);
        }
    };
    let undo_last = {
        let restore = restore.clone();
        move |_| {
            if let Some((saved, _)) = undo.get_untracked() {
                restore(saved);
                undo.set(None);
                import_result.set(None);
            }
        }
    };
    let add_case = {
        let new_row = new_row.clone();
        move |_| {
            let n = rows.with_untracked(Vec::len) + 1;
            let row = new_row(EvalCase {
                name: format!("new case {n}"),
                ..EvalCase::default()
            });
            rows.update(|rs| rs.push(row));
        }
    };
    let move_row = move |id: u32, by: isize| {
        rows.update(|rs| {
            if let Some(i) = rs.iter().position(|r| r.id == id) {
                move_item(rs, i, by);
            }
        });
    };
    let remove_row = move |id: u32| {
        let name = rows.with_untracked(|rs| {
            rs.iter()
                .position(|r| r.id == id)
                .map(|i| rs[i].case.with_untracked(|c| display_name(c, i)))
        });
        if let Some(name) = name {
            remember(format!("removal of \u{201c}{name}\u{201d}"));
            rows.update(|rs| rs.retain(|r| r.id != id));
        }
    };

    let import_id = unique_id("eval-import");
    let import_label_for = import_id.clone();
    let schema_id = unique_id("eval-schema");
    let schema_label_for = schema_id.clone();
    let count = Signal::derive(move || rows.with(Vec::len));

    view! {
        <WidgetCard title="Mini eval: baseline against optimized" name="mini-eval">
            <p class="widget-note eval-intro">
                "Each case is a question, a reference SQL query, and the query each system wrote. An answer passes when it matches the reference once case, spacing and a final semicolon are ignored, unless you set its verdict by hand. The candidate is the optimized system."
            </p>
            <div class="outputs">
                <div class="output">
                    <span class="output-label">"Baseline accuracy"</span>
                    <output class="output-value" data-testid="eval-acc-baseline" aria-live="polite">
                        {move || accuracy(true).0}
                    </output>
                    <span class="output-note">{move || accuracy(true).1}</span>
                </div>
                <div class="output">
                    <span class="output-label">"Candidate accuracy"</span>
                    <output class="output-value" data-testid="eval-acc-candidate" aria-live="polite">
                        {move || accuracy(false).0}
                    </output>
                    <span class="output-note">{move || accuracy(false).1}</span>
                </div>
                <div class="output">
                    <span class="output-label">"McNemar p (exact)"</span>
                    <output class="output-value" data-testid="eval-mcnemar" aria-live="polite">
                        {move || eval::p_value_text(summary.with(|s| s.mcnemar_p))}
                    </output>
                    <span class="output-note">
                        {move || summary.with(|s| format!("{} regressed, {} fixed", s.buckets.regressed.len(), s.buckets.fixed.len()))}
                    </span>
                </div>
            </div>
            <p class="eval-sentence" data-testid="eval-interval-note">
                {move || summary.with(|s| eval::interval_sentence(s.baseline_passes, s.candidate_passes, s.cases))}
            </p>
            <p class="eval-sentence" data-testid="eval-mcnemar-note">
                {move || summary.with(|s| eval::mcnemar_sentence(s.buckets.regressed.len(), s.buckets.fixed.len()))}
            </p>

            <h4 class="eval-heading">"Where the cases went"</h4>
            <div class="eval-buckets">
                {Bucket::ALL
                    .into_iter()
                    .map(|bucket| {
                        let testid = match bucket {
                            Bucket::Regressed => "eval-bucket-regressed",
                            Bucket::Fixed => "eval-bucket-fixed",
                            Bucket::StillFailing => "eval-bucket-still-failing",
                            Bucket::UnchangedPass => "eval-bucket-unchanged",
                        };
                        let hint = match bucket {
                            Bucket::Regressed => "baseline pass, candidate fail",
                            Bucket::Fixed => "baseline fail, candidate pass",
                            Bucket::StillFailing => "both fail",
                            Bucket::UnchangedPass => "both pass",
                        };
                        let names = move || {
                            cases.with(|cs| {
                                summary.with(|s| {
                                    s.buckets
                                        .get(bucket)
                                        .iter()
                                        .map(|&i| (cs[i].name.clone(), display_name(&cs[i], i), cs[i].critical))
                                        .collect::<Vec<_>>()
                                })
                            })
                        };
                        let size = move || summary.with(|s| s.buckets.get(bucket).len());
                        view! {
                            <section class="eval-bucket" data-bucket=verdict_bucket_id(bucket) data-testid=testid>
                                <h5 class="eval-bucket-title">
                                    <span class="eval-bucket-count">{size}</span>
                                    " "
                                    {bucket.label()}
                                    <span class="eval-bucket-hint">{hint}</span>
                                </h5>
                                <ul class="eval-bucket-list">
                                    {move || {
                                        let items = names();
                                        if items.is_empty() {
                                            view! { <li class="eval-bucket-empty">"none"</li> }.into_any()
                                        } else {
                                            items
                                                .into_iter()
                                                .map(|(name, shown, critical)| {
                                                    view! {
                                                        <li data-case=name class:critical=critical title=critical.then_some("critical case")>
                                                            {shown}
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
                    })
                    .collect_view()}
            </div>

            <h4 class="eval-heading">"The changed cases, token by token"</h4>
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
                                        <span class="eval-badge" data-bucket=verdict_bucket_id(c.bucket)>{c.bucket.label()}</span>
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

            <h4 class="eval-heading">"Ship it?"</h4>
            <div class="eval-decision">
                <div class="controls">
                    <NumberField
                        label="Tolerance: largest accuracy drop"
                        testid="eval-tolerance"
                        text=tolerance_text
                        error=tolerance_error
                        unit="points"
                    />
                </div>
                <p
                    class="eval-verdict"
                    class:accepted=move || decision.with(|d| d.as_ref().is_some_and(|d| d.accept))
                    class:stale=stale
                    data-testid="eval-verdict"
                    aria-live="polite"
                >
                    {move || decision.with(|d| d.as_ref().map(|d| d.reason.clone()).unwrap_or_default())}
                </p>
                <p class="widget-note">
                    "A case marked critical (below) rejects the candidate on its own if it regresses, whatever the averages say."
                </p>
            </div>

            <h4 class="eval-heading">{move || format!("The cases ({})", count.get())}</h4>
            <div class="field eval-schema">
                <label for=schema_label_for>"Schema the questions are about"</label>
                <textarea
                    id=schema_id
                    class="eval-sql-input"
                    rows="2"
                    spellcheck="false"
                    prop:value=move || schema.get()
                    on:input=move |ev| schema.set(event_target_value(&ev))
                ></textarea>
            </div>
            <div class="eval-cases-box" role="region" aria-label="The cases" tabindex="0">
            <ol class="eval-cases">
                <For each=move || rows.get() key=|r| r.id let:row>
                    <CaseRow
                        row=row
                        index=Signal::derive(move || rows.with(|rs| rs.iter().position(|r| r.id == row.id).unwrap_or(0)))
                        count=count
                        on_move=Callback::new(move |by: isize| move_row(row.id, by))
                        on_remove=Callback::new(move |()| remove_row(row.id))
                    />
                </For>
            </ol>
            </div>
            <div class="eval-actions">
                <button type="button" data-testid="eval-add" on:click=add_case>"Add a case"</button>
                <button type="button" data-testid="eval-reset" on:click=reset>"Reset to the lesson\u{2019}s eval"</button>
                {move || undo.get().map(|(_, what)| {
                    view! {
                        <button type="button" data-testid="eval-undo" on:click=undo_last.clone()>
                            {format!("Undo the {what}")}
                        </button>
                    }
                })}
            </div>

            <h4 class="eval-heading">"Export and import"</h4>
            <div class="eval-actions">
                <a class="button" data-testid="eval-export-json" node_ref=json_link on:click=move |_| refresh_exports() download="mini-eval.json">
                    "Download the eval (JSON)"
                </a>
                <a class="button" data-testid="eval-export-csv" node_ref=csv_link on:click=move |_| refresh_exports() download="mini-eval-results.csv">
                    "Download the results (CSV)"
                </a>
            </div>
            <div class="field eval-import">
                <label for=import_label_for>"Paste an eval file (JSON), or two columns of pass/fail (baseline, candidate), one line per case"</label>
                <textarea
                    id=import_id
                    class="eval-sql-input"
                    rows="4"
                    spellcheck="false"
                    data-testid="eval-import"
                    placeholder="pass\tpass\npass\tfail\n\u{2026}"
                    prop:value=move || import_text.get()
                    on:input=move |ev| import_text.set(event_target_value(&ev))
                ></textarea>
            </div>
            <div class="eval-actions">
                <button type="button" class="button primary" data-testid="eval-import-apply" on:click=apply_import>
                    "Import"
                </button>
            </div>
            {move || import_result.get().map(|r| match r {
                Ok(msg) => view! { <p class="eval-import-ok" role="status" data-testid="eval-import-message">{msg}</p> }.into_any(),
                Err(msg) => view! { <p class="eval-import-error field-message" role="alert" data-testid="eval-import-message">{msg}</p> }.into_any(),
            })}
        </WidgetCard>
    }
}

/// A snapshot of the editor without tracking (for event handlers).
fn current_untracked(
    rows: RwSignal<Vec<Row>>,
    schema: RwSignal<String>,
    tolerance: RwSignal<String>,
) -> Saved {
    Saved {
        eval: EvalSet {
            version: eval::EVAL_FORMAT_VERSION,
            schema: schema.get_untracked(),
            cases: rows.with_untracked(|rs| rs.iter().map(|r| r.case.get_untracked()).collect()),
        },
        tolerance: tolerance.get_untracked(),
    }
}

/// The `data-bucket` value of a bucket, for styling.
fn verdict_bucket_id(bucket: Bucket) -> &'static str {
    match bucket {
        Bucket::Regressed => "regressed",
        Bucket::Fixed => "fixed",
        Bucket::StillFailing => "still-failing",
        Bucket::UnchangedPass => "unchanged",
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

/// A text field of a case (name, question or SQL), editing that case's signal.
#[component]
fn CaseField(
    /// The visible label.
    label: &'static str,
    /// The case edited.
    case: RwSignal<EvalCase>,
    /// Reads the field.
    get: fn(&EvalCase) -> String,
    /// Writes the field.
    set: fn(&mut EvalCase, String),
    /// Whether the field holds SQL (monospace, several lines).
    #[prop(optional)]
    sql: bool,
    /// Extra class for layout.
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let id = unique_id("eval-field");
    let label_for = id.clone();
    let value = move || case.with(get);
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        case.update(|c| set(c, text));
    };
    view! {
        <div class=format!("field eval-field {class}")>
            <label for=label_for>{label}</label>
            {if sql {
                view! {
                    <textarea id=id class="eval-sql-input" rows="1" spellcheck="false" prop:value=value on:input=on_input></textarea>
                }
                .into_any()
            } else {
                view! { <input id=id type="text" autocomplete="off" prop:value=value on:input=on_input /> }.into_any()
            }}
        </div>
    }
}

/// One system's grade in a case row: a pass checkbox (setting the verdict by hand) and the
/// grading mode.
#[component]
fn Grade(
    /// "Baseline" or "Candidate".
    system: &'static str,
    /// The case graded.
    case: RwSignal<EvalCase>,
    /// Whether this is the candidate.
    candidate: bool,
) -> impl IntoView {
    let verdict = move || {
        case.with(|c| {
            if candidate {
                c.candidate_verdict
            } else {
                c.baseline_verdict
            }
        })
    };
    let passes = move || {
        case.with(|c| {
            let o = eval::outcome(c);
            if candidate {
                o.1
            } else {
                o.0
            }
        })
    };
    let set = move |v: Verdict| {
        case.update(|c| {
            if candidate {
                c.candidate_verdict = v;
            } else {
                c.baseline_verdict = v;
            }
        })
    };
    let (check_id, select_id) = if candidate {
        ("eval-candidate-pass", "eval-candidate-verdict")
    } else {
        ("eval-baseline-pass", "eval-baseline-verdict")
    };
    let select_dom_id = unique_id(select_id);
    let select_for = select_dom_id.clone();
    view! {
        <div class="eval-grade" class:fails=move || !passes()>
            <label class="eval-check">
                <input
                    type="checkbox"
                    data-testid=check_id
                    prop:checked=passes
                    on:change=move |ev| set(if event_target_checked(&ev) { Verdict::Pass } else { Verdict::Fail })
                />
                {format!("{system} passes")}
            </label>
            <label class="visually-hidden" for=select_for>{format!("{system} grading")}</label>
            <select
                id=select_dom_id
                data-testid=select_id
                prop:value=move || verdict_id(verdict())
                on:change=move |ev| set(verdict_from_id(&event_target_value(&ev)))
            >
                <option value="auto">"auto"</option>
                <option value="pass">"pass (by hand)"</option>
                <option value="fail">"fail (by hand)"</option>
            </select>
        </div>
    }
}

/// One editable case.
#[component]
fn CaseRow(
    /// The case and its id.
    row: Row,
    /// Its place in the list, from 0.
    #[prop(into)]
    index: Signal<usize>,
    /// How many cases there are.
    #[prop(into)]
    count: Signal<usize>,
    /// Moves it up (−1) or down (+1).
    on_move: Callback<isize>,
    /// Removes it.
    on_remove: Callback<()>,
) -> impl IntoView {
    let case = row.case;
    let name = move || case.with(|c| c.name.clone());
    // Buttons are named by position, so that a case's name never leaks into their labels.
    let label = move || format!("case {}", index.get() + 1);
    let bucket = move || {
        case.with(|c| {
            let (b, k) = eval::outcome(c);
            Bucket::of(b, k)
        })
    };
    view! {
        <li class="eval-case" data-case=name>
            <div class="eval-case-head">
                <span class="eval-case-num">{move || index.get() + 1}</span>
                <CaseField label="Name" case=case get=|c| c.name.clone() set=|c, v| c.name = v class="eval-name" />
                <span class="eval-badge" data-bucket=move || verdict_bucket_id(bucket())>{move || bucket().label()}</span>
                <div class="eval-case-tools">
                    <button
                        type="button"
                        class="icon-button"
                        aria-label=move || format!("Move {} up", label())
                        disabled=move || index.get() == 0
                        on:click=move |_| on_move.run(-1)
                    >
                        "\u{2191}"
                    </button>
                    <button
                        type="button"
                        class="icon-button"
                        aria-label=move || format!("Move {} down", label())
                        disabled=move || { index.get() + 1 >= count.get() }
                        on:click=move |_| on_move.run(1)
                    >
                        "\u{2193}"
                    </button>
                    <button
                        type="button"
                        class="icon-button"
                        aria-label=move || format!("Remove {}", label())
                        on:click=move |_| on_remove.run(())
                    >
                        "\u{d7}"
                    </button>
                </div>
            </div>
            <CaseField label="Question" case=case get=|c| c.question.clone() set=|c, v| c.question = v />
            <CaseField label="Reference SQL" case=case get=|c| c.reference_sql.clone() set=|c, v| c.reference_sql = v sql=true />
            <CaseField label="Baseline SQL" case=case get=|c| c.baseline_sql.clone() set=|c, v| c.baseline_sql = v sql=true />
            <CaseField label="Candidate SQL" case=case get=|c| c.candidate_sql.clone() set=|c, v| c.candidate_sql = v sql=true />
            <div class="eval-grades">
                <Grade system="Baseline" case=case candidate=false />
                <Grade system="Candidate" case=case candidate=true />
            <label class="eval-check eval-critical">
                <input
                    type="checkbox"
                    data-testid="eval-critical"
                    prop:checked=move || case.with(|c| c.critical)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        case.update(|c| c.critical = on)
                    }
                />
                "Critical"
            </label>
            </div>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_eval_loads_with_its_two_changed_cases() {
        let set = lesson_eval();
        assert_eq!(set.cases.len(), 10);
        let s = eval::summarize(&set.cases);
        assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
        let name = |i: &[usize]| set.cases[i[0]].name.clone();
        assert_eq!(name(&s.buckets.regressed), "emails of admins");
        assert_eq!(name(&s.buckets.fixed), "distinct cities");
        assert!(!eval::decide(&set.cases, 0.0).accept);
    }

    #[test]
    fn verdict_ids_round_trip_and_rows_move_in_range() {
        for v in [Verdict::Auto, Verdict::Pass, Verdict::Fail] {
            assert_eq!(verdict_from_id(verdict_id(v)), v);
        }
        let mut items = [1, 2, 3];
        assert!(move_item(&mut items, 0, 1));
        assert_eq!(items, [2, 1, 3]);
        assert!(!move_item(&mut items, 0, -1));
        assert!(!move_item(&mut items, 2, 1));
        assert!(!move_item(&mut items, 5, -1));
        assert!(move_item(&mut items, 2, -1));
        assert_eq!(items, [2, 3, 1]);
        assert_eq!(display_name(&EvalCase::default(), 2), "case 3");
    }

    #[test]
    fn saved_state_survives_json() {
        let saved = lesson_saved();
        let json = serde_json::to_string(&saved).unwrap();
        assert_eq!(serde_json::from_str::<Saved>(&json).unwrap(), saved);
    }
}
