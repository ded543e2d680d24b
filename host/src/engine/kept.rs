//! Results a finder keeps from one run to the next in pinned host memory, read in place by the
//! live result of the last run, which holds them until it is dropped.

use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::error::{Error, Result};

/// The results `slot` keeps, for the next run to read back into; an error, not a wait (which
/// would never end on the caller's own thread), while the live result of the previous run (or
/// a pinned run on another thread) holds them.
pub(crate) fn take_kept<'a, T>(slot: &'a Mutex<T>, what: &str) -> Result<MutexGuard<'a, T>> {
    match slot.try_lock() {
        Ok(kept) => Ok(kept),
        // A run that panicked left nothing the next one reads: every run writes them afresh.
        Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => Err(Error::InvalidArgument(format!(
            "the {what} of the previous pinned run are still held: drop its result (or copy it out) before the \
             next pinned run"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_slot_is_refused_not_waited_for() {
        let slot = Mutex::new(7);
        let held = take_kept(&slot, "labels").unwrap();
        let refused = take_kept(&slot, "labels").unwrap_err().to_string();
        assert!(refused.contains("labels of the previous pinned run are still held"), "{refused}");
        drop(held);
        assert_eq!(*take_kept(&slot, "labels").unwrap(), 7);
    }
}
