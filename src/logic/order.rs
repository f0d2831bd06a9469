//! The course's one stable sort. The standard library's sort is generic: every type of item and
//! every comparison it is called with adds its own copy of the sorting code (2 to 4 KB of wasm
//! each) to each module that links the call. Here the sorting is done once, on positions
//! (`usize`), with the comparison passed as a `dyn Fn`, so every caller shares that one copy;
//! only moving the items into their new order is generic, and that is a few instructions.
//!
//! For a list of a few thousand items at most (the course's largest are a learner's review log
//! and a search's hits) the indirect calls cost nothing a reader could notice.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, keeping equal items in the order they came in: what
/// `items.sort_by(cmp)` does.
pub fn sort_by<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let order = positions_in_order(items.len(), &|a, b| match (items.get(a), items.get(b)) {
        (Some(x), Some(y)) => cmp(x, y),
        _ => Ordering::Equal,
    });
    let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&i| taken.get_mut(i).and_then(Option::take)),
    );
}

/// Sorts `items` by the key `key` gives each, keeping equal keys in their order: what
/// `items.sort_by_key(key)` does.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..n`, stably sorted by `cmp`: the one place that sorts.
#[inline(never)]
pub fn positions_in_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sorts_and_keeps_equal_items_in_their_order() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_by_key(&mut v, |&(k, _)| k);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (3, 'a'), (3, 'c')]);
        sort_by(&mut v, |a, b| b.0.cmp(&a.0));
        assert_eq!(v, [(3, 'a'), (3, 'c'), (1, 'b'), (1, 'e'), (0, 'd')]);
        let mut empty: Vec<String> = Vec::new();
        sort_by(&mut empty, Ord::cmp);
        assert!(empty.is_empty());
        assert_eq!(positions_in_order(3, &|a, b| b.cmp(&a)), [2, 1, 0]);
    }

    proptest! {
        /// The same order as the standard library's stable sort, for any list and any key.
        #[test]
        fn agrees_with_the_standard_stable_sort(items in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            let mut std = items;
            sort_by_key(&mut ours, |&(k, _)| k);
            std.sort_by_key(|&(k, _)| k);
            prop_assert_eq!(ours, std);
        }
    }
}
