//! A map for the page's few-entry lookups (connection results by provider,
//! listed models by row, chart widths, pending timer waits).
//!
//! A `BTreeMap` or `HashMap` compiles its table code (insert, remove,
//! rebalance or rehash, clone) once per key and value type, 2 to 4 kB of
//! wasm each time; these maps hold a handful of entries, so a sorted vector
//! searched by halves does the same job with a few hundred bytes. Entries stay sorted by key, so two maps
//! with the same entries compare equal however they were built, as
//! `BTreeMap`s do (the reducer relies on that to skip re-renders).

use std::borrow::Borrow;

/// A map kept as a vector of entries sorted by key. Lookups cost
/// O(log n); inserts and removals O(n), which is nothing at these sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K: Ord, V> SmallMap<K, V> {
    /// An empty map; does not allocate.
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// The value under `key`, if any.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = self.position(key).ok()?;
        self.entries.get(at).map(|(_, value)| value)
    }

    /// Puts `value` under `key`, returning the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(at) => self
                .entries
                .get_mut(at)
                .map(|(_, old)| std::mem::replace(old, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// Takes the value under `key` out of the map.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = self.position(key).ok()?;
        Some(self.entries.remove(at).1)
    }

    /// Whether there is an entry under `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).is_ok()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Takes every entry out, in key order.
    pub fn drain(&mut self) -> impl Iterator<Item = (K, V)> + '_ {
        self.entries.drain(..)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `Ok(index)` of `key`'s entry, or `Err(index)` where it would go.
    fn position<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }
}

impl<K: Ord, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn insert_get_remove_clear() {
        let mut map: SmallMap<String, u32> = SmallMap::new();
        assert!(map.is_empty());
        assert_eq!(map.insert("groq".into(), 1), None);
        assert_eq!(map.insert("openai".into(), 2), None);
        assert_eq!(map.insert("groq".into(), 3), Some(1));
        assert_eq!(
            (map.get("groq"), map.get("openai"), map.len()),
            (Some(&3), Some(&2), 2)
        );
        assert_eq!(map.remove("groq"), Some(3));
        assert_eq!((map.remove("groq"), map.get("groq")), (None, None));
        map.insert("anthropic".into(), 4);
        let drained: Vec<(String, u32)> = map.drain().collect();
        assert_eq!(
            drained,
            [("anthropic".to_owned(), 4), ("openai".to_owned(), 2)]
        );
        assert!(map.is_empty());
        map.insert("groq".into(), 5);
        map.clear();
        assert!(map.is_empty());
    }

    #[test]
    fn equal_whatever_the_insertion_order() {
        let mut a = SmallMap::new();
        let mut b = SmallMap::new();
        for k in [3, 1, 2] {
            a.insert(k, k * 10);
        }
        for k in [1, 2, 3] {
            b.insert(k, k * 10);
        }
        assert_eq!(a, b);
        b.insert(2, 0);
        assert_ne!(a, b);
    }

    proptest! {
        #[test]
        fn behaves_like_a_btree_map(ops in prop::collection::vec((0u8..3, 0u8..12, any::<u16>()), 0..120)) {
            let mut small = SmallMap::new();
            let mut btree = BTreeMap::new();
            for (op, key, value) in ops {
                match op {
                    0 => prop_assert_eq!(small.insert(key, value), btree.insert(key, value)),
                    1 => prop_assert_eq!(small.remove(&key), btree.remove(&key)),
                    _ => prop_assert_eq!(small.get(&key), btree.get(&key)),
                }
                prop_assert_eq!(small.len(), btree.len());
            }
            let entries: Vec<(u8, u16)> = btree.into_iter().collect();
            prop_assert_eq!(small.entries, entries);
        }
    }
}
