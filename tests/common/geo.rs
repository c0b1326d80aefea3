//! The map of a built-in scenario, indexed for the data tests (tests/*_data.rs): terrain
//! and names by hex, hexside features, flood fills.

use fm_core::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The map's geometry, indexed for the tests.
pub struct Geo {
    pub layout: Layout,
    pub terrain: BTreeMap<Hex, String>,
    pub names: BTreeMap<Hex, String>,
    pub sides: BTreeMap<(Hex, Hex), Vec<String>>,
    pub cols: u8,
    pub rows: u8,
}

impl Geo {
    /// Indexes the map; every hex has exactly one base terrain and every hexside is
    /// listed once.
    pub fn new(sc: &Scenario) -> Geo {
        let map = &sc.data.map;
        let mut terrain = BTreeMap::new();
        let mut names = BTreeMap::new();
        for h in &map.hexes {
            assert_eq!(
                h.terrain.len(),
                1,
                "{}: a hex has exactly one base terrain",
                h.id
            );
            terrain.insert(h.id, h.terrain[0].clone());
            if let Some(n) = &h.name {
                names.insert(h.id, n.clone());
            }
        }
        let mut sides = BTreeMap::new();
        for s in &map.hexsides {
            let [a, b] = s.hexes;
            let old = sides.insert((a.min(b), a.max(b)), s.features.clone());
            assert!(old.is_none(), "{a}-{b} listed twice");
        }
        let cols = map.hexes.iter().map(|h| h.id.col).max().unwrap();
        let rows = map.hexes.iter().map(|h| h.id.row).max().unwrap();
        Geo {
            layout: sc.layout(),
            terrain,
            names,
            sides,
            cols,
            rows,
        }
    }

    pub fn neighbors(&self, h: Hex) -> Vec<Hex> {
        self.layout
            .neighbors(h)
            .into_iter()
            .flatten()
            .filter(|n| self.terrain.contains_key(n))
            .collect()
    }

    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.neighbors(a).contains(&b)
    }

    pub fn side_has(&self, a: Hex, b: Hex, feature: &str) -> bool {
        self.sides
            .get(&(a.min(b), a.max(b)))
            .is_some_and(|f| f.iter().any(|x| x == feature))
    }

    pub fn sides_with(&self, feature: &str) -> Vec<(Hex, Hex)> {
        self.sides
            .iter()
            .filter(|(_, f)| f.iter().any(|x| x == feature))
            .map(|(k, _)| *k)
            .collect()
    }

    pub fn is(&self, h: Hex, t: &str) -> bool {
        self.terrain[&h] == t
    }

    pub fn hexes_of(&self, t: &str) -> BTreeSet<Hex> {
        self.terrain
            .iter()
            .filter(|(_, v)| *v == t)
            .map(|(h, _)| *h)
            .collect()
    }

    pub fn named(&self, n: &str) -> Hex {
        let found: Vec<Hex> = self
            .names
            .iter()
            .filter(|(_, v)| *v == n)
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(found.len(), 1, "hexes named {n}: {found:?}");
        found[0]
    }

    /// Hexes reachable from `seeds` through hexes in `within` (all hexes if `None`),
    /// never crossing a hexside carrying any of `walls`.
    pub fn fill(
        &self,
        seeds: &[Hex],
        within: Option<&BTreeSet<Hex>>,
        walls: &[&str],
    ) -> BTreeSet<Hex> {
        let ok = |h: &Hex| within.map_or(true, |w| w.contains(h));
        let mut seen: BTreeSet<Hex> = seeds.iter().copied().filter(ok).collect();
        let mut queue: VecDeque<Hex> = seen.iter().copied().collect();
        while let Some(h) = queue.pop_front() {
            for n in self.neighbors(h) {
                if !ok(&n) || seen.contains(&n) || walls.iter().any(|w| self.side_has(h, n, w)) {
                    continue;
                }
                seen.insert(n);
                queue.push_back(n);
            }
        }
        seen
    }
}
