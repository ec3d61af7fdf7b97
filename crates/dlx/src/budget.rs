//! The bytes a memoised count holds in the buffers that grow as it goes, against the bytes it
//! may take. A buffer grows by doubling, and while it moves the old one and the new one are
//! both held: that peak is what is checked before growing, and the growth itself is asked of
//! the system fallibly, so that a count that runs out of room stops and says so rather than
//! aborting the program.

/// Why a count found no room to grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Short {
    /// The growth would have passed the budget.
    Budget,
    /// The system refused an allocation the budget allowed (a `ulimit -v`, a cgroup, the
    /// machine itself).
    System,
}

/// Bytes held, and the most they may be.
#[derive(Debug)]
pub(super) struct Budget {
    held: u64,
    limit: u64,
    short: Option<Short>,
}

impl Budget {
    /// A budget of `limit` bytes of which `held` are taken already.
    pub fn new(limit: u64, held: u64) -> Budget {
        Budget {
            held,
            limit,
            short: None,
        }
    }

    /// Why a growth was refused, if one was.
    pub fn short(&self) -> Option<Short> {
        self.short
    }

    /// A new start: no growth refused yet.
    pub fn forget_short(&mut self) {
        self.short = None;
    }

    /// Room in `v` for `more` items, growing it to at least twice its capacity; `false` when
    /// the budget or the system refuses (`v` then as it was).
    pub fn room<X>(&mut self, v: &mut Vec<X>, more: usize) -> bool {
        let (len, cap) = (v.len(), v.capacity());
        if cap - len >= more {
            return true;
        }
        let size = std::mem::size_of::<X>() as u64;
        let want = (len + more).max(2 * cap).max(64);
        if !self.allows((want as u64).saturating_mul(size)) {
            return false;
        }
        if v.try_reserve_exact(want - len).is_err() {
            return self.refused();
        }
        self.held += (v.capacity() - cap) as u64 * size;
        true
    }

    /// A new buffer of `n` copies of `x`, the buffers held so far still there; `None` when
    /// the budget or the system refuses.
    pub fn fresh<X: Clone>(&mut self, n: usize, x: X) -> Option<Vec<X>> {
        let size = std::mem::size_of::<X>() as u64;
        if !self.allows((n as u64).saturating_mul(size)) {
            return None;
        }
        let mut v = Vec::new();
        if v.try_reserve_exact(n).is_err() {
            self.refused();
            return None;
        }
        v.resize(n, x);
        self.held += v.capacity() as u64 * size;
        Some(v)
    }

    /// `v` is about to be dropped: its bytes are free again.
    pub fn release<X>(&mut self, v: &Vec<X>) {
        self.held -= (v.capacity() * std::mem::size_of::<X>()) as u64;
    }

    /// Whether `bytes` more may be held beside those held now.
    fn allows(&mut self, bytes: u64) -> bool {
        if self.held.saturating_add(bytes) > self.limit {
            self.short = Some(Short::Budget);
            return false;
        }
        true
    }

    fn refused(&mut self) -> bool {
        self.short = Some(Short::System);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_checked_at_its_peak() {
        // 64 u64 = 512 bytes, then doubling to 128 (1,024 bytes) holds 1,536 while it moves.
        let mut b = Budget::new(1_500, 0);
        let mut v: Vec<u64> = Vec::new();
        assert!(b.room(&mut v, 1));
        v.resize(64, 0);
        assert!(!b.room(&mut v, 1));
        assert_eq!(b.short(), Some(Short::Budget));
        assert_eq!(v.capacity(), 64);
        let mut roomier = Budget::new(1_536, 0);
        let mut w: Vec<u64> = Vec::new();
        assert!(roomier.room(&mut w, 64));
        w.resize(64, 0);
        assert!(roomier.room(&mut w, 1));
        assert_eq!(roomier.short(), None);
    }

    #[test]
    fn a_fresh_buffer_counts_beside_the_others() {
        let mut b = Budget::new(4_096, 1_000);
        let t = b.fresh(700, 0u32).expect("2,800 bytes beside 1,000 fit");
        assert!(b.fresh(100, 0u32).is_none());
        b.release(&t);
        assert!(b.fresh(100, 0u32).is_some());
    }

    #[test]
    fn the_system_refusing_is_told_apart() {
        let mut b = Budget::new(u64::MAX, 0);
        // More than any allocator gives (isize::MAX bytes at most).
        assert!(b.fresh(usize::MAX / 2, 0u64).is_none());
        assert_eq!(b.short(), Some(Short::System));
    }
}
