//! The tuning knobs of the domination strategies, each declared once.
//!
//! One table row per option (name, type, default, accepted range, a line on why it exists)
//! in the [`options!`] invocation below; the macro derives from it the option structs, their
//! `Default`, a `set` by name with its range check, and the table that lists them. A knob
//! changes how fast a search goes, never what it proves: every value in its range keeps
//! the bounds valid and the pruning sound. Constants that define a result (the slack of a
//! floating-point test, the list of subtrees that the parts of a proof share) stay
//! constants in the code that uses them.
//!
//! The options travel with the model ([`Model::tuning`]); keys name a group and an option,
//! `"bnb.root_steps"`.
//!
//! [`Model::tuning`]: super::model::Model::tuning

/// One option as the table lists it.
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    pub name: &'static str,
    pub default: f64,
    /// The accepted values: `min..=max`, whole numbers only where `integer`.
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub help: &'static str,
}

/// The options of one group (`bnb`, `bands`, ...).
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub name: &'static str,
    pub options: &'static [Descriptor],
}

/// The types an option may have: how a value given as a number becomes one.
pub trait OptionValue: Copy {
    const INTEGER: bool;
    fn from_f64(x: f64) -> Self;
}

impl OptionValue for usize {
    const INTEGER: bool = true;
    fn from_f64(x: f64) -> usize {
        x as usize
    }
}

impl OptionValue for u32 {
    const INTEGER: bool = true;
    fn from_f64(x: f64) -> u32 {
        x as u32
    }
}

impl OptionValue for u64 {
    const INTEGER: bool = true;
    fn from_f64(x: f64) -> u64 {
        x as u64
    }
}

impl OptionValue for f64 {
    const INTEGER: bool = false;
    fn from_f64(x: f64) -> f64 {
        x
    }
}

/// Why a tuning option is not set: a key no group knows, or a value out of its range.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionError {
    /// No option has this key; `known`: the keys of the group it names, or every key when
    /// it names no group.
    Unknown { key: String, known: Vec<String> },
    /// `key = value` is outside the option's range `min..=max` (whole numbers only where
    /// `integer`).
    OutOfRange {
        key: String,
        value: f64,
        min: f64,
        max: f64,
        integer: bool,
    },
}

impl Descriptor {
    /// `Ok` when `value` is one this option accepts; the error names the option and its
    /// range.
    pub fn check(&self, key: &str, value: f64) -> Result<(), OptionError> {
        let whole = !self.integer || value.fract() == 0.0;
        if value.is_finite() && whole && value >= self.min && value <= self.max {
            return Ok(());
        }
        Err(OptionError::OutOfRange {
            key: key.to_string(),
            value,
            min: self.min,
            max: self.max,
            integer: self.integer,
        })
    }
}

/// Declares the option groups: a struct per group with a field per option (documented by
/// its help line), its `Default`, `TABLE` and `set`; and [`Tuning`], which holds a struct of
/// each group.
macro_rules! options {
    ($(
        $(#[$gdoc:meta])*
        $group:ident: $Struct:ident {
            $( $field:ident: $ty:ty = $default:expr, [$lo:expr, $hi:expr], $help:literal; )*
        }
    )*) => {
        $(
            $(#[$gdoc])*
            #[derive(Clone, Debug, PartialEq)]
            pub struct $Struct {
                $( #[doc = $help] pub $field: $ty, )*
            }

            impl Default for $Struct {
                fn default() -> $Struct {
                    $Struct { $( $field: $default, )* }
                }
            }

            impl $Struct {
                pub const TABLE: &'static [Descriptor] = &[$(
                    Descriptor {
                        name: stringify!($field),
                        default: ($default) as f64,
                        min: ($lo) as f64,
                        max: ($hi) as f64,
                        integer: <$ty as OptionValue>::INTEGER,
                        help: $help,
                    },
                )*];

                /// Set option `name` of this group; the error gives the accepted range or the
                /// group's names.
                pub fn set(&mut self, name: &str, value: f64) -> Result<(), OptionError> {
                    let Some(d) = Self::TABLE.iter().find(|d| d.name == name) else {
                        return Err(unknown(concat!(stringify!($group), "."), name, Self::TABLE));
                    };
                    d.check(&format!(concat!(stringify!($group), ".{}"), name), value)?;
                    match name {
                        $( stringify!($field) => self.$field = <$ty as OptionValue>::from_f64(value), )*
                        _ => unreachable!("every name of the table has a field"),
                    }
                    Ok(())
                }
            }
        )*

        /// Every option of the domination strategies, by group.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct Tuning {
            $( pub $group: $Struct, )*
        }

        /// The groups, in the order the listing gives them.
        pub static GROUPS: &[Group] = &[
            $( Group { name: stringify!($group), options: $Struct::TABLE }, )*
        ];

        impl Tuning {
            /// Set an option by key, `"group.name"`; the error gives the accepted range or the
            /// known keys.
            pub fn set(&mut self, key: &str, value: f64) -> Result<(), OptionError> {
                let (group, name) = key.split_once('.').unwrap_or((key, ""));
                match group {
                    $( stringify!($group) => self.$group.set(name, value), )*
                    _ => Err(OptionError::Unknown {
                        key: key.to_string(),
                        known: option_table().into_iter().map(|(key, _)| key).collect(),
                    }),
                }
            }
        }
    };
}

options! {
    /// `bnb`: the subgradient steps of the Lagrangian bound, the replaceability rule and the
    /// workers' donations.
    bnb: BnbOptions {
        root_steps: usize = 3000, [0, 1_000_000],
            "Subgradient steps at the root: every node below inherits the root's multipliers.";
        root_mu: f64 = 2.0, [0, 100],
            "The root's first step factor (times Polyak's step length).";
        root_patience: usize = 20, [1, 10_000],
            "Steps without a better bound before the root halves its step factor.";
        node_steps: usize = 128, [0, 100_000],
            "Most steps at a node below the root; one that is not on pace to prune stops sooner.";
        node_mu: f64 = 2.0, [0, 100],
            "The first step factor below the root, where a few steps must move the inherited multipliers.";
        node_patience: usize = 4, [1, 10_000],
            "Steps without a better bound before a node halves its step factor.";
        forbid_upto: u32 = 2, [0, 4096],
            "Would-be replacers of a piece are excluded only where they must cover at most this many squares, as only then are they likely to exist.";
        donate: u32 = 1, [0, 1],
            "1: on several threads, a busy worker hands untried branches to idle ones; 0: each worker keeps to the fixed list of subtrees (measuring that list alone, as docs/performance.md does).";
    }
    /// `bands`: the band bound (strategy `bands`), where the search asks it and how hard.
    bands: BandOptions {
        margin: f64 = 0.3, [0, 1000],
            "The band bound is asked only where the Lagrangian bound comes this near pruning: further out it seldom prunes, and it costs many nodes.";
        steps: usize = 3, [0, 1000],
            "Subgradient steps on the split below the root: the bound comes mostly from the multipliers' split, and each step solves every band again.";
        root_steps: usize = 20, [0, 100_000],
            "Steps on the split at the root, whose bound is asked once.";
        pace: f64 = 0.05, [0, 1000],
            "Below the root the steps on the split stop once the deficit exceeds this much per step left, as a step raises the bound by a few hundredths.";
        mu: f64 = 1.0, [0, 100],
            "The first step factor on the split.";
        rows: usize = 5, [1, 6],
            "Rows a band holds at most: taller bands leave fewer seams, up to what the states of a program allow.";
        cap_extra: f64 = 0.2, [0, 1000],
            "A band's first cap is its share of the deficit and this much more: most bands need far less than the whole deficit, and the states grow fast with the cap.";
        max_states: usize = 1 << 18, [1, 1 << 24],
            "States of one band's program beyond which the band falls back to its own Lagrangian bound, which bounds a solve's time and memory.";
        max_choices: usize = 1 << 23, [1, 1 << 28],
            "Choices one band's program records (8 bytes each) beyond which the band falls back alike.";
    }
    /// `lagrange`: the subgradient steps themselves.
    lagrange: LagrangeOptions {
        pace_steps: usize = 12, [1, 10_000],
            "Steps between checks that a node's bound is still on its way to pruning it; one that is not stops, and the node is branched on.";
    }
    /// `local`: the weighted local search that gives `bnb` its first incumbent.
    local: LocalOptions {
        mean_cap: u64 = 300, [1, 1_000_000_000],
            "Square weights fade once their mean passes this, so that old history gives way to new.";
        fade: f64 = 0.3, [0, 1],
            "The factor by which the weights fade.";
    }
}

/// The error of a name a group does not know: the group's keys.
fn unknown(prefix: &str, name: &str, table: &[Descriptor]) -> OptionError {
    OptionError::Unknown {
        key: format!("{prefix}{name}"),
        known: table
            .iter()
            .map(|d| format!("{prefix}{}", d.name))
            .collect(),
    }
}

/// Every option with its key (`"group.name"`), in the order of the groups.
pub fn option_table() -> Vec<(String, &'static Descriptor)> {
    GROUPS
        .iter()
        .flat_map(|g| {
            g.options
                .iter()
                .map(move |d| (format!("{}.{}", g.name, d.name), d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default lies in its range, and setting it by key gives the default back.
    #[test]
    fn defaults_are_in_range_and_set_by_key() {
        let table = option_table();
        assert!(table.len() >= 19);
        for (key, d) in &table {
            d.check(key, d.default).expect("the default is accepted");
            let mut t = Tuning::default();
            t.set(key, d.default).expect("a known key");
            assert_eq!(t, Tuning::default(), "{key}");
        }
    }

    #[test]
    fn set_checks_names_and_ranges() {
        let mut t = Tuning::default();
        t.set("bnb.root_steps", 10.0).unwrap();
        assert_eq!(t.bnb.root_steps, 10);
        t.set("local.fade", 0.5).unwrap();
        assert_eq!(t.local.fade, 0.5);
        assert_eq!(
            t.set("bnb.root_steps", 2.5),
            Err(OptionError::OutOfRange {
                key: "bnb.root_steps".into(),
                value: 2.5,
                min: 0.0,
                max: 1e6,
                integer: true
            })
        );
        let Err(OptionError::OutOfRange { key, value, .. }) = t.set("bands.rows", 7.0) else {
            panic!("bands.rows = 7 is out of range");
        };
        assert_eq!((key.as_str(), value), ("bands.rows", 7.0));
        // An unknown name of a group lists the group's keys; of no group, every key.
        let Err(OptionError::Unknown { key, known }) = t.set("bnb.no_such", 1.0) else {
            panic!("bnb.no_such is unknown");
        };
        assert_eq!(key, "bnb.no_such");
        assert_eq!(known[..2], ["bnb.root_steps", "bnb.root_mu"]);
        assert!(known.iter().all(|k| k.starts_with("bnb.")), "{known:?}");
        let Err(OptionError::Unknown { key, known }) = t.set("nowhere", 1.0) else {
            panic!("nowhere is unknown");
        };
        assert_eq!(key, "nowhere");
        assert_eq!(known.len(), option_table().len());
        assert!(known.iter().any(|k| k == "local.fade"), "{known:?}");
        assert!(t.set("local.fade", f64::NAN).is_err());
    }
}
