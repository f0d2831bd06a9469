//! The mini eval's grading, statistics, diff, decision and files.

use super::super::format::fixed;
use super::grading::{is_diff_punct, tokenize};
use super::*;
use proptest::strategy::Strategy;

/// A case graded automatically.
fn case(name: &str, question: &str, reference: &str, baseline: &str, candidate: &str) -> EvalCase {
    EvalCase {
        name: name.into(),
        question: question.into(),
        reference_sql: reference.into(),
        baseline_sql: baseline.into(),
        candidate_sql: candidate.into(),
        ..EvalCase::default()
    }
}

/// The course plan's mini eval: ten text-to-SQL cases over one `users` table.
fn course_eval() -> EvalSet {
    let mut admins = case(
        "emails of admins",
        "What are the email addresses of the admins?",
        "SELECT email FROM users WHERE is_admin = TRUE;",
        "SELECT email FROM users WHERE is_admin = TRUE;",
        "SELECT email FROM users;",
    );
    admins.critical = true;
    EvalSet {
        version: 1,
        grading: Grading::Text,
        schema: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, \
                 email TEXT NOT NULL, city TEXT NOT NULL, is_admin BOOLEAN NOT NULL);"
            .into(),
        cases: vec![
            case(
                "all names",
                "List the name of every user.",
                "SELECT name FROM users;",
                "SELECT name FROM users;",
                "select name from users",
            ),
            case(
                "count users",
                "How many users are there?",
                "SELECT COUNT(*) FROM users;",
                "SELECT COUNT(*) FROM users;",
                "SELECT count( * ) FROM users;",
            ),
            case(
                "users in Paris",
                "What are the names of the users who live in Paris?",
                "SELECT name FROM users WHERE city = 'Paris';",
                "SELECT name FROM users WHERE city='Paris';",
                "SELECT name\nFROM users\nWHERE city = 'Paris';",
            ),
            case(
                "distinct cities",
                "Which cities do users live in? List each city once.",
                "SELECT DISTINCT city FROM users;",
                "SELECT city FROM users;",
                "SELECT DISTINCT city FROM users;",
            ),
            admins,
            case(
                "count admins",
                "How many users are admins?",
                "SELECT COUNT(*) FROM users WHERE is_admin = TRUE;",
                "SELECT COUNT(*) FROM users WHERE is_admin = TRUE;",
                "SELECT COUNT(*) FROM users WHERE is_admin=true;",
            ),
            case(
                "users per city",
                "How many users live in each city?",
                "SELECT city, COUNT(*) FROM users GROUP BY city;",
                "SELECT city, COUNT(*) FROM users GROUP BY city;",
                "SELECT city,COUNT(*) FROM users GROUP BY city;",
            ),
            case(
                "name by email",
                "What is the name of the user whose email is ada@example.com?",
                "SELECT name FROM users WHERE email = 'ada@example.com';",
                "SELECT name FROM users WHERE email = 'ada@example.com';",
                "SELECT name FROM users WHERE email = 'ada@example.com'",
            ),
            case(
                "names in order",
                "List all user names in alphabetical order.",
                "SELECT name FROM users ORDER BY name;",
                "SELECT name FROM users ORDER BY name;",
                "SELECT name FROM users ORDER BY name ;",
            ),
            case(
                "busiest city",
                "Which city has the most users?",
                "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
                "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
                "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
            ),
        ],
    }
}

fn names(cases: &[EvalCase], indices: &[usize]) -> Vec<String> {
    indices.iter().map(|&i| cases[i].name.clone()).collect()
}

/// The golden figures of the course plan.
#[test]
fn reproduces_the_course_mini_eval() {
    let set = course_eval();
    let cases = &set.cases;
    assert_eq!(cases.len(), 10);
    let s = summarize(cases);
    assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
    assert_eq!(fixed(s.baseline_accuracy() * 100.0, 0), "90");
    assert_eq!(fixed(s.candidate_accuracy() * 100.0, 0), "90");
    assert_eq!(names(cases, &s.buckets.regressed), ["emails of admins"]);
    assert_eq!(names(cases, &s.buckets.fixed), ["distinct cities"]);
    assert!(s.buckets.still_failing.is_empty());
    assert_eq!(s.buckets.unchanged_pass.len(), 8);
    assert_eq!(s.mcnemar_p, 1.0);
    assert_eq!(
        decide(cases, 0.0),
        Decision {
            accept: false,
            reason: "rejected: critical case 'emails of admins' regressed".into()
        }
    );
    let mut relaxed = cases.clone();
    relaxed[4].critical = false;
    assert_eq!(
        decide(&relaxed, 0.0),
        Decision {
            accept: true,
            reason: "accepted: candidate 90% (9/10) vs baseline 90% (9/10), within 0 points; \
                     2 changed cases (1 fixed, 1 regressed)"
                .into()
        }
    );
}

#[test]
fn course_eval_survives_json() {
    let set = course_eval();
    let json = eval_json(&set);
    assert_eq!(parse_eval_json(&json), Ok(set));
    assert!(json.contains("\"baseline_verdict\": \"auto\""));
}

#[test]
fn older_or_partial_json_loads_with_defaults() {
    let set =
        parse_eval_json(r#"{"cases": [{"name": "x", "candidate_verdict": "pass"}]}"#).unwrap();
    assert_eq!(set.version, EVAL_FORMAT_VERSION);
    assert_eq!(set.cases[0].baseline_verdict, Verdict::Auto);
    assert_eq!(set.cases[0].candidate_verdict, Verdict::Pass);
    assert!(!set.cases[0].critical);
    assert_eq!(parse_eval_json("{}"), Ok(EvalSet::default()));
}

#[test]
fn the_grading_choice_travels_in_the_file_and_old_files_grade_by_text() {
    let mut set = course_eval();
    assert!(
        !eval_json(&set).contains("grading"),
        "text grading: the version 1 shape"
    );
    set.grading = Grading::Execution;
    set.version = format_version(Grading::Execution);
    let json = eval_json(&set);
    assert!(json.contains("\"grading\": \"execution\""), "{json}");
    assert_eq!(parse_eval_json(&json), Ok(set));
    let old = parse_eval_json(r#"{"version": 1, "schema": "S", "cases": []}"#).unwrap();
    assert_eq!((old.version, old.grading), (1, Grading::Text));
    let m = parse_eval_json(r#"{"grading": "rows"}"#)
        .unwrap_err()
        .message;
    assert!(m.contains("field \u{201c}grading\u{201d}"), "{m}");
}

#[test]
fn execution_grading_uses_the_rows_once_they_are_in_and_verdicts_still_override() {
    use execution::{CaseRuns, QueryResult, Value};
    let mut c = case(
        "admins",
        "",
        "SELECT email FROM users WHERE is_admin = TRUE",
        "SELECT email FROM users WHERE is_admin",
        "SELECT email FROM users",
    );
    let rows = |n: i64| {
        Ok(QueryResult {
            columns: vec!["email".into()],
            rows: (0..n).map(|i| vec![Value::Integer(i)]).collect(),
        })
    };
    let runs = CaseRuns {
        reference: rows(2),
        baseline: rows(2),
        candidate: rows(5),
    };
    assert_eq!(
        graded_outcome(&c, Grading::Text, Some(&runs)),
        (false, false)
    );
    // Until the runs are in, the text decides.
    assert_eq!(graded_outcome(&c, Grading::Execution, None), (false, false));
    assert_eq!(
        graded_outcome(&c, Grading::Execution, Some(&runs)),
        (true, false)
    );
    c.baseline_verdict = Verdict::Fail;
    c.candidate_verdict = Verdict::Pass;
    assert_eq!(
        graded_outcome(&c, Grading::Execution, Some(&runs)),
        (false, true)
    );
}

#[test]
fn bad_json_says_where() {
    let err = parse_eval_json("{\n  \"cases\": [\n    {\"name\": 3}\n  ]\n}").unwrap_err();
    assert_eq!(err.field, "Eval file");
    assert!(
        err.message.starts_with("Line 3, column 14: invalid type"),
        "{}",
        err.message
    );
    let err = parse_eval_json("{\"cases\": [").unwrap_err();
    assert!(
        err.message.starts_with("Line 1, column 11:"),
        "{}",
        err.message
    );
    let err = parse_eval_json(r#"{"cases": [{"baseline_verdict": "maybe"}]}"#).unwrap_err();
    assert!(err.message.contains("unknown variant"), "{}", err.message);
    let err = parse_eval_json(r#"{"version": 3}"#).unwrap_err();
    assert!(err.message.contains("version 3"), "{}", err.message);
    let big = " ".repeat(MAX_INPUT_BYTES + 1);
    assert!(parse_eval_json(&big).unwrap_err().message.contains("1 MB"));
}

#[test]
fn normalizes_sql_for_grading() {
    assert_eq!(
        normalize_sql("SELECT  Name FROM users WHERE city='Paris';"),
        "select name from users where city = 'Paris'"
    );
    assert_eq!(
        normalize_sql("  select COUNT ( * )\n\tfrom USERS ;; "),
        "select count(*) from users"
    );
    assert_eq!(
        normalize_sql("SELECT 'It''s  A' , x"),
        "select 'It''s  A', x"
    );
    assert_eq!(
        normalize_sql("WHERE a>=1 AND b < > 2 AND c IN ( 1,2 )"),
        "where a >= 1 and b <> 2 and c in(1, 2)"
    );
    assert_eq!(normalize_sql("SELECT 1;SELECT (2)"), "select 1; select(2)");
    assert_eq!(normalize_sql("SELECT ';'"), "select ';'");
    assert_eq!(normalize_sql("'unclosed  ;"), "'unclosed  ;");
    assert!(auto_grade("SELECT 1;", "select 1"));
    assert!(!auto_grade(
        "SELECT name FROM users WHERE city = 'Paris'",
        "SELECT name FROM users WHERE city = 'paris'"
    ));
    assert!(!auto_grade("", ""));
    assert!(!auto_grade("SELECT 1", ""));
}

#[test]
fn manual_verdicts_override_auto_grading() {
    let mut c = case("x", "", "SELECT 1", "SELECT 1", "SELECT 2");
    assert_eq!(outcome(&c), (true, false));
    c.baseline_verdict = Verdict::Fail;
    c.candidate_verdict = Verdict::Pass;
    assert_eq!(outcome(&c), (false, true));
}

#[test]
fn wilson_interval_matches_the_formula() {
    let (lo, hi) = wilson_interval(9, 10, Z_95);
    assert_eq!(
        (fixed(lo, 3), fixed(hi, 3)),
        ("0.596".into(), "0.982".into())
    );
    let (lo, hi) = wilson_interval(0, 10, Z_95);
    assert_eq!(lo, 0.0);
    assert_eq!(fixed(hi, 3), "0.278");
    assert_eq!(wilson_interval(10, 10, Z_95).1, 1.0);
    assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
    assert_eq!(wilson_interval(3, 10, f64::NAN), (0.0, 1.0));
    assert_eq!(wilson_interval(3, 10, 0.0), (0.3, 0.3));
    assert_eq!(accuracy(9, 10), 0.9);
    assert_eq!(accuracy(12, 10), 1.0);
    assert_eq!(accuracy(0, 0), 0.0);
}

#[test]
fn mcnemar_exact_known_values() {
    assert_eq!(mcnemar_exact_p(0, 0), 1.0);
    assert_eq!(mcnemar_exact_p(1, 1), 1.0);
    assert_eq!(mcnemar_exact_p(0, 5), 0.0625);
    assert_eq!(fixed(mcnemar_exact_p(1, 9), 4), "0.0215");
    assert_eq!(fixed(mcnemar_exact_p(9, 1), 4), "0.0215");
    assert_eq!(mcnemar_exact_p(0, 2000), 0.0);
    assert!(mcnemar_exact_p(3000, 2000) < 1e-40);
    // The normal approximation takes over smoothly above the exact limit.
    let half = MCNEMAR_EXACT_LIMIT / 2;
    let exact = mcnemar_exact_p(half - 400, half);
    let approx = mcnemar_exact_p(half - 399, half + 2);
    assert!((exact - approx).abs() < 0.01, "{exact} vs {approx}");
    assert!(mcnemar_exact_p(usize::MAX, usize::MAX - 1) > 0.9999);
    assert_eq!(mcnemar_exact_p(0, usize::MAX), 0.0);
}

#[test]
fn diff_marks_the_missing_distinct() {
    use DiffOp::*;
    assert_eq!(
        diff_tokens("SELECT DISTINCT city FROM users", "SELECT city FROM users"),
        [
            Same("SELECT".into()),
            Removed("DISTINCT".into()),
            Same("city".into()),
            Same("FROM".into()),
            Same("users".into()),
        ]
    );
    assert_eq!(
        diff_tokens(
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "select email from users;"
        ),
        [
            Same("SELECT".into()),
            Same("email".into()),
            Same("FROM".into()),
            Same("users".into()),
            Removed("WHERE".into()),
            Removed("is_admin".into()),
            Removed("=".into()),
            Removed("TRUE".into()),
            Same(";".into()),
        ]
    );
    assert_eq!(
        diff_tokens("WHERE city = 'Paris'", "WHERE city = 'paris'"),
        [
            Same("WHERE".into()),
            Same("city".into()),
            Same("=".into()),
            Removed("'Paris'".into()),
            Added("'paris'".into()),
        ]
    );
    assert!(diff_tokens("", "").is_empty());
    assert_eq!(diff_tokens("", "x"), [Added("x".into())]);
}

#[test]
fn decision_rejects_a_real_accuracy_loss() {
    let cases = cases_from_pass_fail(&[(true, true), (true, false), (true, true), (false, false)]);
    let d = decide(&cases, 10.0);
    assert!(!d.accept);
    assert_eq!(
        d.reason,
        "rejected: candidate accuracy 50% (2/4) is more than 10 points below baseline 75% (3/4)"
    );
    let d = decide(&cases, 25.0);
    assert!(d.accept);
    assert_eq!(
        d.reason,
        "accepted: candidate 50% (2/4) vs baseline 75% (3/4), within 25 points; \
         1 changed case (0 fixed, 1 regressed)"
    );
    assert!(!decide(&cases, f64::NAN).accept);
    assert!(!decide(&[], 100.0).accept);
    let mut two = cases_from_pass_fail(&[(true, false), (true, false)]);
    two[0].critical = true;
    two[1].critical = true;
    two[1].name = String::new();
    assert_eq!(
        decide(&two, 100.0).reason,
        "rejected: critical cases 'case 1', 'case 2' regressed"
    );
}

#[test]
fn csv_quotes_per_rfc_4180() {
    assert_eq!(csv_field("plain"), "plain");
    assert_eq!(csv_field("a,b"), "\"a,b\"");
    assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    let set = course_eval();
    let csv = results_csv(&set.cases);
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(lines.len(), 12); // header, 10 rows, and the empty end after the last CRLF
    assert!(lines[5].starts_with(
        "emails of admins,What are the email addresses of the admins?,yes,pass,fail,regressed,"
    ));
    assert!(lines[7].contains("\"SELECT city, COUNT(*) FROM users GROUP BY city;\""));
}

#[test]
fn pasted_columns_parse_or_say_which_line() {
    let rows = parse_pass_fail_columns(
        "baseline\tcandidate\npass\tfail\n\n1\t0\nTRUE , false\nyes\tno\t\n",
    )
    .unwrap();
    assert_eq!(
        rows,
        [(true, false), (true, false), (true, false), (true, false)]
    );
    let msg = |t: &str| parse_pass_fail_columns(t).unwrap_err().message;
    assert_eq!(
        msg("pass,pass\npass,maybe"),
        "Line 2: \u{201c}maybe\u{201d} is not pass/fail, 1/0 or true/false."
    );
    assert_eq!(
        msg("pass,pass\n\npass"),
        "Line 3: expected two values (baseline, candidate), found 1."
    );
    assert_eq!(
        msg("pass,pass\nx,y"),
        "Line 2: \u{201c}x\u{201d} is not pass/fail, 1/0 or true/false."
    );
    assert!(msg("").starts_with("Paste one line per case"));
    assert!(msg("baseline,candidate").starts_with("Paste one line per case"));
    let cases = cases_from_pass_fail(&rows);
    assert_eq!(cases[0].name, "case 1");
    assert_eq!(outcome(&cases[0]), (true, false));
}

#[test]
fn bad_json_names_the_field() {
    let msg = |t: &str| parse_eval_json(t).unwrap_err().message;
    let m = msg("{\n  \"cases\": [\n    {\"name\": 3}\n  ]\n}");
    assert!(
        m.ends_with("(in case 1, field \u{201c}name\u{201d})."),
        "{m}"
    );
    let m = msg(r#"{"cases": [{"name": "a"}, {"name": "b", "critical": "yes"}]}"#);
    assert!(
        m.contains("(in case 2 (\u{201c}b\u{201d}), field \u{201c}critical\u{201d})"),
        "{m}"
    );
    let m = msg(r#"{"cases": [{"candidate_verdict": "maybe"}]}"#);
    assert!(
        m.contains("case 1, field \u{201c}candidate_verdict\u{201d}"),
        "{m}"
    );
    assert!(msg(r#"{"cases": 3}"#).contains("field \u{201c}cases\u{201d}"));
    assert!(msg("[1]").starts_with("Line 1: the file is a list"));
    assert!(msg("3").contains("the top level"));
    assert!(msg(r#"{"version": "one"}"#).contains("field \u{201c}version\u{201d}"));
}

#[test]
fn import_reads_json_or_columns_or_refuses() {
    let set = course_eval();
    assert_eq!(parse_import(&eval_json(&set)), Ok(Import::Eval(set)));
    assert_eq!(
        parse_import("pass fail\nfail pass\n1 1\n"),
        Ok(Import::Verdicts(vec![
            (true, false),
            (false, true),
            (true, true)
        ]))
    );
    let err = |t: &str| parse_import(t).unwrap_err().message;
    assert!(err("  ").starts_with("Paste an eval file"));
    assert!(err("{\"cases\": [").starts_with("Line 1, column 11"));
    assert!(err("[1]").starts_with("Line 1: the file is a list"));
    assert!(err("pass pass\nmaybe pass").starts_with("Line 2:"));
    assert!(err(&"x".repeat(MAX_INPUT_BYTES + 1)).contains("1 MB"));
}

#[test]
fn ids_of_verdicts_and_buckets() {
    for v in [Verdict::Auto, Verdict::Pass, Verdict::Fail] {
        assert_eq!(Verdict::from_id(v.id()), v);
    }
    assert_eq!(Verdict::from_id("junk"), Verdict::Auto);
    let ids: Vec<&str> = Bucket::ALL.iter().map(|b| b.id()).collect();
    assert_eq!(ids, ["regressed", "fixed", "still-failing", "unchanged"]);
    assert_eq!(Bucket::Fixed.hint(), "baseline fail, candidate pass");
}

#[test]
fn one_pass_summary_matches_grading_each_case() {
    let set = course_eval();
    let outcomes: Vec<(bool, bool)> = set.cases.iter().map(outcome).collect();
    let s = Summary::of_outcomes(outcomes);
    assert_eq!(s, summarize(&set.cases));
    assert_eq!(s.buckets, bucket_cases(&set.cases));
    assert_eq!(decide_on(&set.cases, &s, 0.0), decide(&set.cases, 0.0));
    assert_eq!(Summary::of_outcomes([]).cases, 0);
}

#[test]
fn diff_sides_highlight_whole_runs() {
    let run = |text: &str, changed| DiffRun {
        text: text.into(),
        changed,
    };
    let (l, r) = diff_sides(
        "SELECT email FROM users WHERE is_admin = TRUE;",
        "SELECT email FROM users;",
    );
    assert_eq!(
        l,
        [
            run("SELECT email FROM users ", false),
            run("WHERE is_admin = TRUE", true),
            run(";", false),
        ]
    );
    assert_eq!(r, [run("SELECT email FROM users;", false)]);
    let (l, r) = diff_sides(
        "SELECT city FROM users;",
        "SELECT DISTINCT city FROM users;",
    );
    assert_eq!(l, [run("SELECT city FROM users;", false)]);
    assert_eq!(
        r,
        [
            run("SELECT ", false),
            run("DISTINCT", true),
            run(" city FROM users;", false),
        ]
    );
    let (l, _) = diff_sides("SELECT COUNT( * ) FROM t", "x");
    let text: String = l.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(text, "SELECT COUNT(*) FROM t");
    assert_eq!(diff_sides("", ""), (vec![], vec![]));
}

#[test]
fn p_values_and_percentages_read_well() {
    assert_eq!(p_value_text(1.0), "1.00");
    assert_eq!(p_value_text(0.0625), "0.0625");
    assert_eq!(p_value_text(mcnemar_exact_p(1, 9)), "0.0215");
    assert_eq!(p_value_text(0.000021), "2.1e-5");
    assert_eq!(p_value_text(0.0), "0");
    assert_eq!(p_value_text(f64::NAN), "1.00");
    assert_eq!(percent_text(0.9), "90%");
    assert_eq!(percent_text(2.0 / 3.0), "66.7%");
    assert_eq!(percent_text(1.0), "100%");
    let s = mcnemar_sentence(1, 1);
    assert!(
        s.contains("1 regressed against 1 fixed") && s.contains("p = 1.00"),
        "{s}"
    );
    assert!(s.contains("cannot tell the two systems apart"), "{s}");
    // The p-value is a chance under the assumption that both systems are equally good:
    // the sentence must state that condition, whichever way the test comes out.
    for (b, c) in [(1, 1), (9, 1), (1, 9), (13, 4)] {
        let s = mcnemar_sentence(b, c);
        assert!(s.contains("if the two systems were equally good"), "{s}");
    }
    assert!(mcnemar_sentence(13, 4).contains("less than 5% of the time"));
    assert!(mcnemar_sentence(9, 1).contains("likely worse"));
    // The lesson's eval: 9 of 10 each, Wilson 95% interval 59.6%–98.2% for both.
    let s = interval_sentence(9, 9, 10);
    assert!(s.contains("that 10 cases cannot rule out"), "{s}");
    assert!(
        s.contains("from 59.6% to 98.2%, the candidate from 59.6% to 98.2%"),
        "{s}"
    );
    assert!(s.contains("The ranges overlap"), "{s}");
    let apart = interval_sentence(990, 500, 1000);
    assert!(apart.contains("do not overlap"), "{apart}");
    assert!(interval_sentence(0, 0, 0).contains("nothing to measure"));
    assert!(interval_sentence(1, 0, 1).contains("that 1 case cannot"));
    assert!(mcnemar_sentence(1, 9).contains("likely better"));
    assert!(mcnemar_sentence(0, 0).starts_with("No case changed"));
}

/// SQL-like text, with quotes, punctuation and odd whitespace.
fn sqlish() -> impl Strategy<Value = String> {
    proptest::prop_oneof![
        "[a-zA-Z0-9_ '(),;=<>*.\t\n]{0,40}",
        proptest::prelude::any::<String>(),
    ]
}

proptest::proptest! {
    #[test]
    fn buckets_partition_the_cases(
        results in proptest::collection::vec(
            (proptest::prelude::any::<bool>(), proptest::prelude::any::<bool>()),
            0..60,
        )
    ) {
        let cases = cases_from_pass_fail(&results);
        let b = bucket_cases(&cases);
        let mut all: Vec<usize> = Bucket::ALL.iter().flat_map(|&k| b.get(k).to_vec()).collect();
        all.sort_unstable();
        proptest::prop_assert_eq!(all, (0..cases.len()).collect::<Vec<_>>());
        for k in Bucket::ALL {
            for &i in b.get(k) {
                proptest::prop_assert_eq!(Bucket::of(results[i].0, results[i].1), k);
            }
        }
    }

    #[test]
    fn wilson_bounds_hold(n in 0usize..2000, passes in 0usize..2000, z in 0.0f64..5.0) {
        let passes = passes.min(n);
        let (lo, hi) = wilson_interval(passes, n, z);
        let p = accuracy(passes, n);
        proptest::prop_assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
        if n > 0 {
            proptest::prop_assert!(lo <= p && p <= hi);
        }
    }

    #[test]
    fn mcnemar_is_a_symmetric_probability(b in 0usize..400, c in 0usize..400) {
        let p = mcnemar_exact_p(b, c);
        proptest::prop_assert!((0.0..=1.0).contains(&p));
        proptest::prop_assert_eq!(p, mcnemar_exact_p(c, b));
        // A more lopsided split is never less surprising.
        proptest::prop_assert!(mcnemar_exact_p(b.min(c), b.max(c) + 1) <= p + 1e-15);
    }

    #[test]
    fn normalize_sql_is_idempotent(s in sqlish()) {
        let once = normalize_sql(&s);
        proptest::prop_assert_eq!(normalize_sql(&once), once.clone());
        proptest::prop_assert!(auto_grade(&s, &once) || once.is_empty());
    }

    #[test]
    fn diff_rebuilds_both_sides(a in sqlish(), b in sqlish()) {
        let ops = diff_tokens(&a, &b);
        let keys = |s: &str| -> Vec<String> {
            tokenize(s, is_diff_punct).into_iter().map(|t| t.0.key()).collect()
        };
        let key = |s: &str| keys(s).concat();
        let left: String = ops.iter().filter_map(|op| match op {
            DiffOp::Same(t) | DiffOp::Removed(t) => Some(key(t)),
            DiffOp::Added(_) => None,
        }).collect();
        let right: String = ops.iter().filter_map(|op| match op {
            DiffOp::Same(t) | DiffOp::Added(t) => Some(key(t)),
            DiffOp::Removed(_) => None,
        }).collect();
        proptest::prop_assert_eq!(left, keys(&a).concat());
        proptest::prop_assert_eq!(right, keys(&b).concat());
    }
}
