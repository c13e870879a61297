//! The transposition table: an exact set of the states' keys, open addressing
//! with generations, so that clearing it costs nothing (SOLVER.md, *Transposition
//! table*).

/// A state's key in the table ([`Search::insert`]), with room above its bits for
/// the table's generation ([`GENERATION_BITS`]).
pub(super) trait TableKey: Copy + Default + Eq {
    /// The key's words, for the tests' check of the keys.
    #[cfg(test)]
    fn words(self) -> [u64; 4];
    /// The key with `generation` in its top bits, in place of the one there.
    fn stamped(self, generation: u64) -> Self;
    fn generation(self) -> u64;
    /// A 64-bit hash of the key without its generation.
    fn hash(self) -> u64;
}

/// A 64-bit hash of `words` (multiply and xor-shift over them), the generation's
/// bits of the last one cleared.
#[inline(always)]
fn hash_words<const W: usize>(mut words: [u64; W]) -> u64 {
    let mix = |h: u64, word: u64| {
        let h = (h ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ h >> 29
    };
    words[W - 1] &= !0 >> GENERATION_BITS;
    let h = words.into_iter().fold(0x243f_6a88_85a3_08d3, mix);
    h ^ h >> 32
}

/// The bits at the top of a key that hold the table's generation.
pub(super) const GENERATION_BITS: u32 = 16;

/// [`Search::key`]'s key under `deal_to="all"`: 108 bits.
impl TableKey for u128 {
    #[cfg(test)]
    fn words(self) -> [u64; 4] {
        [0, 0, self as u64, (self >> 64) as u64]
    }
    fn stamped(self, generation: u64) -> u128 {
        self & !0 >> GENERATION_BITS | u128::from(generation) << (128 - GENERATION_BITS)
    }
    fn generation(self) -> u64 {
        (self >> (128 - GENERATION_BITS)) as u64
    }
    fn hash(self) -> u64 {
        hash_words([self as u64, (self >> 64) as u64])
    }
}

/// [`Search::wide_key`]'s key, under any `deal_to`: 167 bits.
impl TableKey for [u64; 4] {
    #[cfg(test)]
    fn words(self) -> [u64; 4] {
        self
    }
    fn stamped(mut self, generation: u64) -> [u64; 4] {
        self[3] = self[3] & !0 >> GENERATION_BITS | generation << (64 - GENERATION_BITS);
        self
    }
    fn generation(self) -> u64 {
        self[3] >> (64 - GENERATION_BITS)
    }
    fn hash(self) -> u64 {
        hash_words(self)
    }
}

/// An exact set of states, stored as their keys: open addressing over `slots`,
/// each a key stamped with the generation of the set it was put in, so that a slot
/// of an older generation is free and clearing the set costs nothing. Keys are
/// compared in full, so two states are never confused, whatever their hash.
pub(super) struct TranspositionTable<K: TableKey> {
    slots: Vec<K>,
    pub(super) len: usize,
    pub(super) generation: u64,
}

/// The memory ran out: the search stops with no verdict.
pub(super) struct OutOfMemory;

impl<K: TableKey> TranspositionTable<K> {
    const MIN_SLOTS: usize = 1 << 10;

    pub(super) fn new() -> TranspositionTable<K> {
        TranspositionTable {
            slots: vec![K::default(); Self::MIN_SLOTS],
            len: 0,
            generation: 1,
        }
    }

    /// Forget every key.
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.next_generation();
    }

    /// The generation after this one. When the count wraps, the slots of older
    /// generations than this one are freed first, so that none passes for the new one.
    fn next_generation(&mut self) -> u64 {
        if self.generation + 1 < 1 << GENERATION_BITS {
            return self.generation + 1;
        }
        for slot in &mut self.slots {
            if slot.generation() != self.generation {
                *slot = K::default();
            }
        }
        1
    }

    /// Add `key` (its generation bits clear): true if it is new, false if it was
    /// there.
    pub(super) fn insert(&mut self, key: K) -> std::result::Result<bool, OutOfMemory> {
        debug_assert_eq!(key.generation(), 0, "a key's top bits are the table's");
        // At most three slots in four in use: a new key probes about 8 slots, two
        // or three cache lines, and the table takes 21 to 43 bytes a state.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow()?;
        }
        let slot = key.stamped(self.generation);
        let mask = self.slots.len() - 1;
        let mut i = key.hash() as usize & mask;
        loop {
            let there = self.slots[i];
            if there == slot {
                return Ok(false);
            }
            if there.generation() != self.generation {
                break;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
        self.len += 1;
        Ok(true)
    }

    /// Double the slots and put every key back, in place: the memory of a large
    /// table grows without a copy (a `realloc` that maps the old pages anew), so
    /// the search never holds the old slots and the new ones at once.
    fn grow(&mut self) -> std::result::Result<(), OutOfMemory> {
        let old = self.slots.len();
        self.slots.try_reserve_exact(old).map_err(|_| OutOfMemory)?;
        self.slots.resize(2 * old, K::default());
        // The keys of this generation, all in the first half, are free slots to the
        // next one: each is taken out and put back under it, and one that it lands
        // on is put back in turn.
        let (from, to) = (self.generation, self.next_generation());
        let mask = 2 * old - 1;
        for i in 0..old {
            let mut key = self.slots[i];
            if key.generation() != from {
                continue;
            }
            self.slots[i] = K::default();
            loop {
                let mut j = key.hash() as usize & mask;
                while self.slots[j].generation() == to {
                    j = (j + 1) & mask;
                }
                let there = std::mem::replace(&mut self.slots[j], key.stamped(to));
                if there.generation() != from {
                    break;
                }
                key = there;
            }
        }
        self.generation = to;
        Ok(())
    }
}
