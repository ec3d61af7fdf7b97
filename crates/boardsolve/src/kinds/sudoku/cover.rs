//! The sudoku as an exact cover, as Knuth's generators write it: an item a blank cell
//! (`p` row column), an item a unit and symbol that no given holds (`r` row symbol, `c`
//! column symbol, `b` region symbol, `x` and `y` symbol for the diagonals), an item a killer
//! cage (`k` number); an option a symbol in a blank cell outside the cages, or one way to
//! fill a cage. Rows, columns and regions are numbered from 0 in base 36.

use super::{Model, SudokuRefusal};
use crate::dlx::Problem;
use crate::spec::{MAX_COVER_ENTRIES, SUDOKU_SYMBOLS};

/// A symbol (from 0) in a cell.
type Filled = (u32, u8);
/// Where each way to fill a cage goes; `false` from it stops the enumeration.
type OnFilling<'a> = &'a mut dyn FnMut(&[Filled]) -> bool;

/// The run's stop conditions (time limit, interrupt) as the cover's build asks them: `true`
/// means stop now. Asked at every step of a cage's enumeration, so it must be cheap
/// ([`crate::engine::Run::poll`] is: it reads the clock only when its tick moved).
pub type Stop<'a> = &'a mut dyn FnMut() -> bool;

/// A [`Stop`] (none: never) and whether it said stop: the enumeration's `false` is then the
/// stop's, not the receiver's.
struct Watcher<'a> {
    stop: Option<Stop<'a>>,
    stopped: bool,
}

impl Watcher<'_> {
    /// A watcher that never says stop: for what runs outside a search.
    fn never() -> Watcher<'static> {
        Watcher {
            stop: None,
            stopped: false,
        }
    }

    #[inline]
    fn stop(&mut self) -> bool {
        if !self.stopped
            && let Some(stop) = &mut self.stop
        {
            self.stopped = stop();
        }
        self.stopped
    }
}

/// The exact cover of a puzzle and, for each option, the cells it fills.
pub struct Cover {
    pub problem: Problem,
    /// Option `k` fills `(cell, symbol)` for each pair of `fills[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    fills: Vec<(u32, u8)>,
}

/// The units in the grid's order: rows, columns, regions (if any), the two diagonals (if
/// the rules have them).
fn unit_name(m: &Model, u: usize, symbol: u8) -> String {
    let n = m.grid.n;
    let d = SUDOKU_SYMBOLS[symbol as usize] as char;
    let regions = m.grid.regions.is_some() as usize;
    match u / n {
        0 => format!("r{}{d}", base36(u)),
        1 => format!("c{}{d}", base36(u - n)),
        2 if regions == 1 => format!("b{}{d}", base36(u - 2 * n)),
        _ if u == (2 + regions) * n => format!("x{d}"),
        _ => format!("y{d}"),
    }
}

fn base36(k: usize) -> char {
    char::from_digit(k as u32, 36).unwrap_or('?')
}

impl Model {
    /// The symbols each blank cell may hold beside the givens (bit k: symbol k).
    fn open(&self) -> Vec<u64> {
        let g = &self.grid;
        let full = (1u64 << g.n) - 1;
        (0..g.n * g.n)
            .map(|c| {
                let mut m = full;
                for &p in g.peers_of(c) {
                    if self.givens[p as usize] != 0 {
                        m &= !(1u64 << (self.givens[p as usize] - 1));
                    }
                }
                m
            })
            .collect()
    }

    /// Each way to fill cage `k`'s blank cells, as the symbols in its cells' order, handed
    /// to `each` until it or `watch` says stop; none where its givens already break it.
    fn cage_fillings(&self, k: usize, open: &[u64], watch: &mut Watcher, each: OnFilling) {
        let cage = &self.grid.cages[k];
        let mut used = 0u64;
        let mut left = cage.sum as i64;
        let mut blank = Vec::new();
        for &c in &cage.cells {
            match self.givens[c] {
                0 => blank.push(c as u32),
                g => {
                    if used & (1 << (g - 1)) != 0 {
                        return;
                    }
                    used |= 1 << (g - 1);
                    left -= g as i64;
                }
            }
        }
        let mut chosen: Vec<(u32, u8)> = Vec::with_capacity(blank.len());
        let mut walk = Walk {
            blank: &blank,
            open,
            n: self.grid.n as i64,
            chosen: &mut chosen,
            watch,
            each,
        };
        walk.fill(used, left);
    }

    /// Entries the exact cover would hold, counted before anything is built (once a model:
    /// the strategy's checks and its memory estimate ask it before the search).
    pub fn cover_entries(&self) -> u64 {
        let mut never = Watcher::never();
        *self
            .entries
            .get_or_init(|| self.count_entries(&mut never).unwrap_or(u64::MAX))
    }

    /// [`Model::cover_entries`] under `watch`: `None` where it said stop first.
    fn cover_entries_until(&self, watch: &mut Watcher) -> Option<u64> {
        if let Some(&e) = self.entries.get() {
            return Some(e);
        }
        let e = self.count_entries(watch)?;
        Some(*self.entries.get_or_init(|| e))
    }

    fn count_entries(&self, watch: &mut Watcher) -> Option<u64> {
        let open = self.open();
        let in_cage = self.in_cage();
        let per_fill = |cells: usize| cells as u64 * (1 + 4);
        let mut entries: u64 = (0..open.len())
            .filter(|&c| self.givens[c] == 0 && !in_cage[c])
            .map(|c| open[c].count_ones() as u64 * per_fill(1))
            .sum();
        for k in 0..self.grid.cages.len() {
            let mut fills = 0u64;
            // Counted up to the bound only: a cage of 25 cells has 25! fillings.
            let room = (MAX_COVER_ENTRIES as u64).saturating_sub(entries);
            self.cage_fillings(k, &open, watch, &mut |f| {
                fills += per_fill(f.len()) + 1;
                fills <= room
            });
            if watch.stopped {
                return None;
            }
            entries += fills;
            if entries > MAX_COVER_ENTRIES as u64 {
                break;
            }
        }
        Some(entries)
    }

    fn in_cage(&self) -> Vec<bool> {
        let mut in_cage = vec![false; self.grid.n * self.grid.n];
        for cage in &self.grid.cages {
            for &c in &cage.cells {
                in_cage[c] = true;
            }
        }
        in_cage
    }

    /// The puzzle's exact cover; refused where the cages' fillings are too many.
    pub fn cover(&self) -> Result<Cover, SudokuRefusal> {
        self.build(&mut Watcher::never())
    }

    /// The puzzle's exact cover, its build (a killer cage may have millions of fillings)
    /// asking `stop` at every step: `Ok(None)` where it said stop. Refused where the cages'
    /// fillings are too many.
    pub fn cover_until(&self, stop: Stop) -> Result<Option<Cover>, SudokuRefusal> {
        let mut watch = Watcher {
            stop: Some(stop),
            stopped: false,
        };
        let cover = self.build(&mut watch)?;
        Ok((!watch.stopped).then_some(cover))
    }

    /// The exact cover, or a part of it where `watch` said stop.
    fn build(&self, watch: &mut Watcher) -> Result<Cover, SudokuRefusal> {
        let mut cover = Cover {
            problem: Problem::new(),
            start: vec![0],
            fills: Vec::new(),
        };
        let Some(entries) = self.cover_entries_until(watch) else {
            return Ok(cover);
        };
        if entries > MAX_COVER_ENTRIES as u64 {
            return Err(SudokuRefusal::CagesTooMany {
                entries,
                limit: MAX_COVER_ENTRIES as u64,
            });
        }
        let g = &self.grid;
        let n = g.n;
        let open = self.open();
        let in_cage = self.in_cage();
        let problem = &mut cover.problem;
        let mut cell_item = vec![usize::MAX; n * n];
        for (c, item) in cell_item.iter_mut().enumerate() {
            if self.givens[c] == 0 {
                *item = problem.add_primary(format!("p{}{}", base36(c / n), base36(c % n)));
            }
        }
        // The item of unit u and symbol s: unit_item[u * n + s], none where a given holds it.
        let mut unit_item = vec![usize::MAX; g.num_units() * n];
        for u in 0..g.num_units() {
            let mut given = 0u64;
            for &c in g.unit(u) {
                if self.givens[c as usize] != 0 {
                    given |= 1 << (self.givens[c as usize] - 1);
                }
            }
            for s in 0..n {
                if given & (1 << s) == 0 {
                    unit_item[u * n + s] = problem.add_primary(unit_name(self, u, s as u8));
                }
            }
        }
        let cage_item: Vec<usize> = (0..g.cages.len())
            .map(|k| problem.add_primary(format!("k{k}")))
            .collect();
        let mut items: Vec<(usize, u32)> = Vec::new();
        let mut add = |cover: &mut Cover, fills: &[(u32, u8)], cage: Option<usize>| {
            items.clear();
            items.extend(cage.map(|k| (cage_item[k], 0)));
            for &(c, s) in fills {
                items.push((cell_item[c as usize], 0));
                for &u in g.units_of(c as usize) {
                    items.push((unit_item[u as usize * n + s as usize], 0));
                }
            }
            // Items are distinct by construction: a filling's symbols differ, so no unit
            // and symbol comes twice.
            if cover.problem.add_option(&items).is_ok() {
                cover.fills.extend_from_slice(fills);
                cover.start.push(cover.fills.len() as u32);
            }
        };
        for c in 0..n * n {
            if self.givens[c] != 0 || in_cage[c] {
                continue;
            }
            if watch.stop() {
                return Ok(cover);
            }
            let mut m = open[c];
            while m != 0 {
                let s = m.trailing_zeros() as u8;
                m &= m - 1;
                add(&mut cover, &[(c as u32, s)], None);
            }
        }
        for k in 0..g.cages.len() {
            self.cage_fillings(k, &open, watch, &mut |f| {
                add(&mut cover, f, Some(k));
                true
            });
            if watch.stopped {
                break;
            }
        }
        Ok(cover)
    }
}

/// One cage's enumeration: its blank cells, the symbols each may hold, the symbols chosen
/// so far, and where each filling goes.
struct Walk<'w, 's> {
    blank: &'w [u32],
    open: &'w [u64],
    n: i64,
    chosen: &'w mut Vec<Filled>,
    watch: &'w mut Watcher<'s>,
    each: OnFilling<'w>,
}

impl Walk<'_, '_> {
    /// Fill the blank cells from the first unchosen one with symbols not `used` that `open`
    /// allows, adding up to `left` (values 1 to n), each filling handed to `each`; `false`
    /// when `each` or the watcher said stop.
    fn fill(&mut self, used: u64, left: i64) -> bool {
        if self.watch.stop() {
            return false;
        }
        let rest = self.blank.len() as i64 - self.chosen.len() as i64;
        if rest == 0 {
            return left != 0 || (self.each)(self.chosen);
        }
        // The rest need at least 1 + 2 + ... and at most n + (n - 1) + ...
        if left < rest * (rest + 1) / 2 || left > rest * (2 * self.n - rest + 1) / 2 {
            return true;
        }
        let c = self.blank[self.chosen.len()];
        let mut m = self.open[c as usize] & !used;
        while m != 0 {
            let s = m.trailing_zeros() as u8;
            m &= m - 1;
            self.chosen.push((c, s));
            let go_on = self.fill(used | (1 << s), left - (s as i64 + 1));
            self.chosen.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

impl Cover {
    /// The grid of a solution: the givens, and the cells its options fill.
    pub fn grid(&self, m: &Model, options: &[usize], out: &mut Vec<usize>) {
        out.clear();
        out.extend(m.givens.iter().map(|&g| (g as usize).wrapping_sub(1)));
        for &k in options {
            let fills = &self.fills[self.start[k] as usize..self.start[k + 1] as usize];
            for &(c, s) in fills {
                out[c as usize] = s as usize;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{KindSpec, Overrides, Spec};

    /// A 9x9 grid whose first row but its last cell is one cage of 1 to 8: 8! fillings.
    fn eight_cage() -> Model {
        let cells: Vec<String> = (1..=8).map(|c| format!("\"r1c{c}\"")).collect();
        let text = format!(
            "kind = \"sudoku\"\n[board]\nsize = 9\n[rules]\ncages = [{{ sum = 36, cells = [{}] }}]\n",
            cells.join(", ")
        );
        let spec = Spec::parse("t.toml", &text, &Overrides::default()).unwrap();
        let KindSpec::Sudoku(s) = &spec.rules else {
            panic!("a sudoku");
        };
        Model::compile(&spec, s).unwrap()
    }

    /// A stop that says stop at its `at`-th question.
    fn stop_at(at: u64) -> impl FnMut() -> bool {
        let mut asked = 0;
        move || {
            asked += 1;
            asked >= at
        }
    }

    #[test]
    fn the_build_asks_to_stop_at_every_step_and_stops_where_told() {
        let m = eight_cage();
        let whole = m.cover().unwrap();
        let options = whole.start.len() - 1;
        assert!(options > 40_320, "{options} options");
        // Never told to stop: the same cover, and the stop asked at least once a filling.
        let m = eight_cage();
        let mut asked = 0u64;
        let built = m
            .cover_until(&mut || {
                asked += 1;
                false
            })
            .unwrap()
            .expect("never told to stop");
        assert_eq!((built.start, built.fills), (whole.start, whole.fills));
        assert!(asked >= 2 * 40_320, "asked {asked} times");
        // Told to stop at any point, counting the fillings or adding them: no cover, and not
        // one question after the stop.
        for at in [1, 1_000, asked / 3, asked / 2, asked - 1] {
            let m = eight_cage();
            let mut stop = stop_at(at);
            let mut questions = 0;
            let got = m
                .cover_until(&mut || {
                    questions += 1;
                    stop()
                })
                .unwrap();
            assert!(got.is_none(), "stopped at {at}");
            assert_eq!(questions, at, "stopped at {at}");
            // A count that stopped is not kept: the next build counts again, whole.
            assert_eq!(m.cover_entries(), eight_cage().cover_entries(), "at {at}");
            let again = m
                .cover_until(&mut || false)
                .unwrap()
                .expect("a whole build");
            assert_eq!(again.start.len() - 1, options, "at {at}");
        }
    }
}
