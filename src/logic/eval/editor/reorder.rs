//! Moving a case up or down the list.

use super::{CaseId, EvalEditor};

impl EvalEditor {
    /// Moves case `id` one place up; false if it is first (or gone).
    pub fn move_up(&mut self, id: CaseId) -> bool {
        self.move_by(id, -1)
    }

    /// Moves case `id` one place down; false if it is last (or gone).
    pub fn move_down(&mut self, id: CaseId) -> bool {
        self.move_by(id, 1)
    }

    pub(super) fn move_by(&mut self, id: CaseId, by: isize) -> bool {
        let Some(from) = self.index_of(id) else {
            return false;
        };
        let Some(to) = from
            .checked_add_signed(by)
            .filter(|&to| to < self.cases.len() && from < self.cases.len())
        else {
            return false;
        };
        self.uncount(from);
        self.uncount(to);
        self.cases.swap(from, to);
        self.rows.swap(from, to);
        // Keys stay with places: the two cases trade keys as they trade places.
        let (a, b) = (
            self.rows.get(from).map(|r| r.key),
            self.rows.get(to).map(|r| r.key),
        );
        if let (Some(a), Some(b)) = (a, b) {
            if let Some(r) = self.rows.get_mut(from) {
                r.key = b;
            }
            if let Some(r) = self.rows.get_mut(to) {
                r.key = a;
            }
        }
        self.count(from);
        self.count(to);
        self.clock += 1;
        self.order = self.clock;
        self.place(from);
        self.place(to);
        true
    }
}
