//! The delta-varint compressed lists as every kernel that decodes them sees them: where the
//! host cuts long lists into pieces that decode independently (restart points). Not an
//! algorithm's: placement builds the restart table, any kernel reading compressed lists uses it.

/// Edges between restart points of a long compressed list.
pub const RESTART_EDGES: u64 = 256;

/// Lists of this many edges or more get restart points; shorter ones are decoded whole.
pub const RESTART_MIN_EDGES: u64 = 256;
