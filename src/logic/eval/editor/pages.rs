//! The cases a list shows, a page at a time: every case, the changed ones or one bucket's,
//! narrowed by a search if the reader typed one. Without a search a page costs what it shows,
//! however long the eval; a search reads every case once.

use super::{CaseId, EvalEditor};
use crate::logic::eval::{Bucket, EvalCase};

/// Which cases a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaseFilter {
    /// Every case, in order.
    #[default]
    All,
    /// The regressed cases, then the fixed ones.
    Changed,
    /// The cases of one bucket, in order.
    Bucket(Bucket),
}

impl CaseFilter {
    /// Every filter, in menu order.
    pub const ALL: [CaseFilter; 6] = [
        CaseFilter::All,
        CaseFilter::Changed,
        CaseFilter::Bucket(Bucket::Regressed),
        CaseFilter::Bucket(Bucket::Fixed),
        CaseFilter::Bucket(Bucket::StillFailing),
        CaseFilter::Bucket(Bucket::UnchangedPass),
    ];

    /// Its id in a menu: `all`, `changed`, or the bucket's id.
    pub fn id(self) -> &'static str {
        match self {
            CaseFilter::All => "all",
            CaseFilter::Changed => "changed",
            CaseFilter::Bucket(b) => b.id(),
        }
    }

    /// The filter with id `id` ([`CaseFilter::id`]); anything else is [`CaseFilter::All`].
    pub fn from_id(id: &str) -> CaseFilter {
        CaseFilter::ALL
            .into_iter()
            .find(|f| f.id() == id)
            .unwrap_or_default()
    }

    /// What a reader sees in the menu.
    pub fn label(self) -> &'static str {
        match self {
            CaseFilter::All => "every case",
            CaseFilter::Changed => "changed cases (regressed, then fixed)",
            CaseFilter::Bucket(b) => b.label(),
        }
    }
}

/// One page of a list of cases.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CasePage {
    /// The cases shown, in order.
    pub ids: Vec<CaseId>,
    /// The place of the first one among the cases the list holds, from 0.
    pub first: usize,
    /// How many cases the list holds.
    pub total: usize,
    /// The page shown, from 0: the one asked for, or the last one when there are fewer.
    pub page: usize,
    /// How many pages there are (at least 1).
    pub pages: usize,
}

/// Whether `case` contains `needle` (already lower case) in its name, question or SQL.
fn contains(case: &EvalCase, needle: &str) -> bool {
    [
        &case.name,
        &case.question,
        &case.reference_sql,
        &case.baseline_sql,
        &case.candidate_sql,
    ]
    .iter()
    .any(|f| f.to_lowercase().contains(needle))
}

impl EvalEditor {
    /// The places of the cases `filter` keeps, in the list's order.
    fn filtered(&self, filter: CaseFilter) -> Box<dyn Iterator<Item = usize> + '_> {
        match filter {
            CaseFilter::All => Box::new(0..self.cases.len()),
            CaseFilter::Changed => Box::new(
                self.members_of(Bucket::Regressed)
                    .chain(self.members_of(Bucket::Fixed)),
            ),
            CaseFilter::Bucket(b) => Box::new(self.members_of(b)),
        }
    }

    /// Page `page` (from 0) of the cases `filter` keeps that contain `search` (ignoring case;
    /// blank keeps all), `per_page` to a page (at least 1). A page past the end shows the
    /// last one.
    pub fn page(&self, filter: CaseFilter, search: &str, page: usize, per_page: usize) -> CasePage {
        let per_page = per_page.max(1);
        let needle = search.trim().to_lowercase();
        let matching: Option<Vec<usize>> = (!needle.is_empty()).then(|| {
            self.filtered(filter)
                .filter(|&i| self.cases.get(i).is_some_and(|c| contains(c, &needle)))
                .collect()
        });
        let total = match (&matching, filter) {
            (Some(m), _) => m.len(),
            (None, CaseFilter::All) => self.cases.len(),
            (None, CaseFilter::Changed) => self.tally.changed(),
            (None, CaseFilter::Bucket(b)) => self.tally.count(b),
        };
        let pages = total.div_ceil(per_page).max(1);
        let page = page.min(pages - 1);
        let first = page * per_page;
        let places: Vec<usize> = match matching {
            Some(m) => m.into_iter().skip(first).take(per_page).collect(),
            None => self.filtered(filter).skip(first).take(per_page).collect(),
        };
        CasePage {
            ids: places
                .into_iter()
                .filter_map(|i| self.rows.get(i).map(|r| r.id))
                .collect(),
            first,
            total,
            page,
            pages,
        }
    }

    /// The page (from 0) of the unfiltered list that shows case `id`, `per_page` to a page.
    pub fn page_of(&self, id: CaseId, per_page: usize) -> Option<usize> {
        Some(self.index_of(id)? / per_page.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::eval::editor::{Field, System};
    use crate::logic::eval::{EvalSet, Verdict};

    /// `n` cases "c0", "c1", …: every third regressed, every fifth fixed (by hand).
    fn long(n: usize) -> EvalEditor {
        let verdict = |p: bool| if p { Verdict::Pass } else { Verdict::Fail };
        let cases = (0..n)
            .map(|i| EvalCase {
                name: format!("c{i}"),
                baseline_verdict: verdict(i % 5 != 0),
                candidate_verdict: verdict(i % 3 != 0),
                ..EvalCase::default()
            })
            .collect();
        EvalEditor::new(EvalSet {
            cases,
            ..EvalSet::default()
        })
    }

    fn names(e: &EvalEditor, p: &CasePage) -> Vec<String> {
        p.ids
            .iter()
            .map(|&id| e.case(id).unwrap().name.clone())
            .collect()
    }

    #[test]
    fn pages_of_every_case_and_of_one_bucket() {
        let e = long(50);
        let p = e.page(CaseFilter::All, "", 2, 20);
        assert_eq!((p.first, p.total, p.page, p.pages), (40, 50, 2, 3));
        assert_eq!(names(&e, &p).first().unwrap(), "c40");
        assert_eq!(p.ids.len(), 10);
        // Past the end: the last page.
        assert_eq!(e.page(CaseFilter::All, "", 9, 20).page, 2);
        // Regressed: baseline passes (i % 5 != 0), candidate fails (i % 3 == 0).
        let r = e.page(CaseFilter::Bucket(Bucket::Regressed), "", 0, 4);
        assert_eq!(names(&e, &r), ["c3", "c6", "c9", "c12"]);
        assert_eq!(r.total, e.tally().count(Bucket::Regressed));
        let changed = e.page(CaseFilter::Changed, "", 0, 100);
        assert_eq!(changed.total, e.tally().changed());
        assert_eq!(changed.ids.len(), changed.total);
        // Regressed first, then fixed.
        let n = names(&e, &changed);
        assert_eq!(
            n[r.total - 1..r.total + 1],
            ["c48".to_string(), "c5".into()]
        );
        // Empty: one empty page.
        let none = EvalEditor::new(EvalSet::default()).page(CaseFilter::All, "x", 3, 20);
        assert_eq!((none.total, none.page, none.pages), (0, 0, 1));
    }

    #[test]
    fn search_narrows_any_filter_and_ignores_case() {
        let mut e = long(30);
        let id = e.ids().nth(7).unwrap();
        e.edit(id, Field::Question, "Which ADMINS joined?".into());
        let p = e.page(CaseFilter::All, "  admins ", 0, 20);
        assert_eq!(names(&e, &p), ["c7"]);
        assert_eq!(p.total, 1);
        assert_eq!(e.page(CaseFilter::Changed, "admins", 0, 20).total, 0);
        let p = e.page(CaseFilter::All, "c2", 0, 20);
        assert_eq!(
            names(&e, &p),
            ["c2", "c20", "c21", "c22", "c23", "c24", "c25", "c26", "c27", "c28", "c29"]
        );
        // A filter follows the cases as they change bucket.
        let before = e
            .page(CaseFilter::Bucket(Bucket::Regressed), "", 0, 100)
            .total;
        e.set_verdict(id, System::Candidate, Verdict::Fail);
        let after = e.page(CaseFilter::Bucket(Bucket::Regressed), "", 0, 100);
        assert_eq!(after.total, before + 1);
        assert!(after.ids.contains(&id));
        assert_eq!(e.page_of(id, 5), Some(1));
    }

    #[test]
    fn filter_ids_round_trip() {
        for f in CaseFilter::ALL {
            assert_eq!(CaseFilter::from_id(f.id()), f);
        }
        assert_eq!(CaseFilter::from_id("junk"), CaseFilter::All);
        assert_eq!(CaseFilter::Bucket(Bucket::Fixed).label(), "fixed");
    }
}
