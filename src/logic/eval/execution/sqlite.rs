//! The adapter over SQLite's C API: runs a schema script and one query in a fresh in-memory
//! database and reads the rows back as a [`QueryResult`].
//!
//! Compiled into the SQL module (`src/bin/ie-sql.rs`, SQLite built for wasm32 by
//! `sqlite-wasm-rs`) and into the native tests, where the same code runs on SQLite built by
//! `libsqlite3-sys`: both crates expose SQLite's own C declarations.
//!
//! Guards, since the SQL is the reader's: a query (or schema) that runs too long is stopped
//! ([`MAX_STEPS`]), a result larger than [`MAX_ROWS`] is refused, and only one statement is
//! graded per answer.

use super::{QueryResult, RunOutcome, Value};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr, CString};

#[cfg(not(target_arch = "wasm32"))]
use libsqlite3_sys as ffi;
#[cfg(target_arch = "wasm32")]
use sqlite_wasm_rs as ffi;

/// Largest number of rows a graded query may return.
pub const MAX_ROWS: usize = 10_000;
/// SQLite virtual-machine steps after which a query (or the schema) is stopped, in thousands.
pub const MAX_STEPS: u32 = 50_000;

/// An open connection, closed on drop.
struct Db(*mut ffi::sqlite3);

impl Drop for Db {
    fn drop(&mut self) {
        // SAFETY: the pointer came from sqlite3_open_v2 and is closed once, here; every
        // statement on it is finalized before (`Stmt` borrows the `Db`).
        unsafe {
            ffi::sqlite3_close(self.0);
        }
    }
}

impl Db {
    /// SQLite's message for the last failure on this connection.
    fn error(&self) -> String {
        // SAFETY: sqlite3_errmsg returns a NUL-terminated string owned by the connection,
        // valid until the next call on it; it is copied at once.
        unsafe {
            let msg = ffi::sqlite3_errmsg(self.0);
            if msg.is_null() {
                "unknown error".into()
            } else {
                CStr::from_ptr(msg).to_string_lossy().into_owned()
            }
        }
    }
}

/// A prepared statement, finalized on drop.
struct Stmt<'db>(*mut ffi::sqlite3_stmt, std::marker::PhantomData<&'db Db>);

impl Drop for Stmt<'_> {
    fn drop(&mut self) {
        // SAFETY: the statement came from sqlite3_prepare_v2 and is finalized once, here.
        unsafe {
            ffi::sqlite3_finalize(self.0);
        }
    }
}

/// Counts progress callbacks; asks SQLite to stop past [`MAX_STEPS`].
unsafe extern "C" fn count_steps(counter: *mut c_void) -> c_int {
    // SAFETY: `counter` is the `Cell<u32>` that `run` registered, alive while the handler is
    // set; only shared references to it exist.
    let steps = unsafe { &*counter.cast::<Cell<u32>>() };
    steps.set(steps.get().saturating_add(1));
    c_int::from(steps.get() > MAX_STEPS)
}

/// Runs `schema` (a script of statements) then `query` (one statement) in a fresh in-memory
/// database; the query's rows, or the engine's message.
pub fn run(schema: &str, query: &str) -> RunOutcome {
    let schema =
        CString::new(schema).map_err(|_| "the schema holds a NUL character".to_string())?;
    let query = CString::new(query).map_err(|_| "the query holds a NUL character".to_string())?;
    let mut raw = std::ptr::null_mut();
    // SAFETY: a valid NUL-terminated file name and an out pointer; the connection is owned by
    // `Db` even when opening fails (sqlite3_close accepts it then).
    let rc = unsafe {
        ffi::sqlite3_open_v2(
            c":memory:".as_ptr(),
            &mut raw,
            ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_CREATE,
            std::ptr::null(),
        )
    };
    let db = Db(raw);
    if rc != ffi::SQLITE_OK || raw.is_null() {
        return Err(format!("the database could not be opened ({})", db.error()));
    }
    let steps = Cell::new(0u32);
    // SAFETY: `steps` outlives the handler: it is removed before `steps` goes out of scope.
    unsafe {
        ffi::sqlite3_progress_handler(
            db.0,
            1000,
            Some(count_steps),
            std::ptr::from_ref(&steps).cast_mut().cast(),
        );
    }
    let outcome = exec_schema(&db, &schema).and_then(|()| {
        steps.set(0);
        run_query(&db, &query)
    });
    let stopped = steps.get() > MAX_STEPS;
    // SAFETY: removes the handler that points at `steps`.
    unsafe {
        ffi::sqlite3_progress_handler(db.0, 0, None, std::ptr::null_mut());
    }
    outcome.map_err(|message| {
        if stopped {
            "stopped: it ran too long (an endless query?)".into()
        } else {
            message
        }
    })
}

/// Runs every statement of the schema script.
fn exec_schema(db: &Db, schema: &CStr) -> Result<(), String> {
    let mut err: *mut c_char = std::ptr::null_mut();
    // SAFETY: valid connection and NUL-terminated script; `err` is freed with sqlite3_free.
    let rc =
        unsafe { ffi::sqlite3_exec(db.0, schema.as_ptr(), None, std::ptr::null_mut(), &mut err) };
    if rc == ffi::SQLITE_OK {
        return Ok(());
    }
    let message = if err.is_null() {
        db.error()
    } else {
        // SAFETY: sqlite3_exec set `err` to a NUL-terminated string it allocated.
        unsafe {
            let text = CStr::from_ptr(err).to_string_lossy().into_owned();
            ffi::sqlite3_free(err.cast());
            text
        }
    };
    Err(format!("the schema fails to run: {message}"))
}

/// Prepares and steps the query's one statement; more than one is refused.
fn run_query(db: &Db, query: &CStr) -> RunOutcome {
    let mut tail: *const c_char = query.as_ptr();
    let mut result = None;
    loop {
        let mut raw = std::ptr::null_mut();
        let mut next: *const c_char = std::ptr::null();
        // SAFETY: `tail` points into `query`, NUL-terminated; SQLite sets `next` within it.
        let rc = unsafe { ffi::sqlite3_prepare_v2(db.0, tail, -1, &mut raw, &mut next) };
        let stmt = Stmt(raw, std::marker::PhantomData);
        if rc != ffi::SQLITE_OK {
            return Err(db.error());
        }
        if raw.is_null() {
            // Only whitespace or comments were left.
            break;
        }
        if result.is_some() {
            return Err(
                "only one statement can be graded, and this answer has more than one".into(),
            );
        }
        result = Some(read_rows(db, &stmt)?);
        if next.is_null() {
            break;
        }
        tail = next;
    }
    result.ok_or_else(|| "there is no SQL to run".to_string())
}

/// Steps a prepared statement to the end, reading its rows.
fn read_rows(db: &Db, stmt: &Stmt<'_>) -> RunOutcome {
    // SAFETY (this whole function): `stmt.0` is a live prepared statement; column indices stay
    // below sqlite3_column_count; text and blob pointers are copied before the next step.
    let count = unsafe { ffi::sqlite3_column_count(stmt.0) };
    let columns = (0..count)
        .map(|i| unsafe {
            let name = ffi::sqlite3_column_name(stmt.0, i);
            if name.is_null() {
                String::new()
            } else {
                CStr::from_ptr(name).to_string_lossy().into_owned()
            }
        })
        .collect();
    let mut rows = Vec::new();
    loop {
        let rc = unsafe { ffi::sqlite3_step(stmt.0) };
        if rc == ffi::SQLITE_DONE {
            break;
        }
        if rc != ffi::SQLITE_ROW {
            return Err(db.error());
        }
        if rows.len() >= MAX_ROWS {
            return Err(format!(
                "it returned more than {MAX_ROWS} rows, more than execution grading compares"
            ));
        }
        rows.push((0..count).map(|i| unsafe { read_value(stmt, i) }).collect());
    }
    Ok(QueryResult { columns, rows })
}

/// Column `i` of the current row.
///
/// # Safety
/// `stmt` has a current row and `i` is below its column count.
unsafe fn read_value(stmt: &Stmt<'_>, i: c_int) -> Value {
    let bytes = |ptr: *const u8| -> Vec<u8> {
        // SAFETY: sqlite3_column_bytes gives the length of the buffer just returned.
        let len = usize::try_from(unsafe { ffi::sqlite3_column_bytes(stmt.0, i) }).unwrap_or(0);
        if ptr.is_null() || len == 0 {
            Vec::new()
        } else {
            // SAFETY: `ptr` points at `len` bytes owned by the statement until the next step.
            unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
        }
    };
    // SAFETY: the caller's contract.
    match unsafe { ffi::sqlite3_column_type(stmt.0, i) } {
        ffi::SQLITE_INTEGER => Value::Integer(unsafe { ffi::sqlite3_column_int64(stmt.0, i) }),
        ffi::SQLITE_FLOAT => {
            let r = unsafe { ffi::sqlite3_column_double(stmt.0, i) };
            if r.is_finite() {
                Value::Real(r)
            } else {
                // JSON has no infinities; SQLite prints them so.
                Value::Text(if r > 0.0 { "Inf" } else { "-Inf" }.into())
            }
        }
        ffi::SQLITE_TEXT => {
            let ptr = unsafe { ffi::sqlite3_column_text(stmt.0, i) };
            Value::Text(String::from_utf8_lossy(&bytes(ptr.cast())).into_owned())
        }
        ffi::SQLITE_BLOB => {
            let ptr = unsafe { ffi::sqlite3_column_blob(stmt.0, i) };
            Value::Blob {
                blob: bytes(ptr.cast())
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect(),
            }
        }
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compare, has_order_by, CaseRuns};
    use super::*;

    const SCHEMA: &str = "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, \
        email TEXT, city TEXT, is_admin BOOLEAN NOT NULL);\n\
        INSERT INTO users VALUES (1, 'Ada', 'ada@example.com', 'Paris', TRUE), \
        (2, 'Bo', 'bo@example.com', 'Lyon', FALSE), (3, 'Cy', NULL, 'Paris', FALSE);";

    #[test]
    fn runs_a_query_on_the_schema_and_reads_every_type() {
        let r = run(
            SCHEMA,
            "SELECT id, name, email, 2.5, x'00ff', is_admin = TRUE FROM users ORDER BY id;",
        )
        .unwrap();
        assert_eq!(r.columns[0], "id");
        assert_eq!(r.columns[5], "is_admin = TRUE");
        assert_eq!(r.rows.len(), 3);
        assert_eq!(
            r.rows[0],
            [
                Value::Integer(1),
                Value::Text("Ada".into()),
                Value::Text("ada@example.com".into()),
                Value::Real(2.5),
                Value::Blob {
                    blob: "00ff".into()
                },
                Value::Integer(1),
            ]
        );
        assert_eq!(r.rows[2][2], Value::Null);
        assert_eq!(
            run(SCHEMA, "SELECT 1e999").unwrap().rows[0][0],
            Value::Text("Inf".into())
        );
    }

    #[test]
    fn errors_are_the_engines_messages() {
        assert_eq!(
            run(SCHEMA, "SELEC name FROM users").unwrap_err(),
            "near \"SELEC\": syntax error"
        );
        assert_eq!(
            run(SCHEMA, "SELECT name FROM people").unwrap_err(),
            "no such table: people"
        );
        assert_eq!(
            run("CREATE TABLE t (", "SELECT 1").unwrap_err(),
            "the schema fails to run: incomplete input"
        );
        assert_eq!(
            run(SCHEMA, "  -- nothing\n").unwrap_err(),
            "there is no SQL to run"
        );
        assert!(run(SCHEMA, "SELECT 1; SELECT 2")
            .unwrap_err()
            .starts_with("only one statement"));
        assert!(run(SCHEMA, "SELECT 1;  ;\n -- done").is_ok());
        assert!(run(SCHEMA, "SELECT '\0'").unwrap_err().contains("NUL"));
    }

    #[test]
    fn each_run_starts_from_a_fresh_database() {
        assert!(run(SCHEMA, "DELETE FROM users").is_ok());
        assert_eq!(
            run(SCHEMA, "SELECT COUNT(*) FROM users").unwrap().rows[0][0],
            Value::Integer(3)
        );
    }

    #[test]
    fn endless_and_huge_queries_are_stopped() {
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) \
                       SELECT COUNT(*) FROM n";
        assert!(run("", endless)
            .unwrap_err()
            .starts_with("stopped: it ran too long"));
        let huge = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 20000) \
                    SELECT i FROM n";
        assert!(run("", huge).unwrap_err().contains("more than 10000 rows"));
    }

    #[test]
    fn grading_on_real_results() {
        let grade = |reference: &str, answer: &str| {
            let ordered = has_order_by(reference);
            compare(&run(SCHEMA, reference), &run(SCHEMA, answer), ordered).matches
        };
        // Written differently, same rows: passes, where text grading would fail it.
        assert!(grade(
            "SELECT email FROM users WHERE is_admin = TRUE",
            "select email from users where is_admin"
        ));
        assert!(grade(
            "SELECT COUNT(*) FROM users",
            "SELECT count( * ) FROM users"
        ));
        assert!(grade(
            "SELECT AVG(id) FROM users",
            "SELECT SUM(id) / COUNT(*) FROM users"
        ));
        // Order counts only when the reference sorts.
        assert!(grade(
            "SELECT name FROM users",
            "SELECT name FROM users ORDER BY name DESC"
        ));
        assert!(!grade(
            "SELECT name FROM users ORDER BY name",
            "SELECT name FROM users ORDER BY name DESC"
        ));
        // Duplicates count; NULLs are values.
        assert!(!grade(
            "SELECT DISTINCT city FROM users",
            "SELECT city FROM users"
        ));
        assert!(grade(
            "SELECT email FROM users",
            "SELECT email FROM users ORDER BY id DESC"
        ));
        assert!(!grade(
            "SELECT email FROM users",
            "SELECT COALESCE(email, '') FROM users"
        ));
        assert!(!grade(
            "SELECT name FROM users",
            "SELECT name, city FROM users"
        ));
        assert!(!grade("SELECT name FROM users", "SELEC name FROM users"));
        let runs = CaseRuns::run(
            SCHEMA,
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "SELECT email FROM users;",
            &mut run,
        );
        assert_eq!(runs.outcome(false), (true, false));
    }
}
