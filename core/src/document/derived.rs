//! Values the editor's features derive from one record's text (its folds, its outline, its
//! semantic classification), each computed once per record: a record's text never changes,
//! so after a keystroke a request over the whole document computes them for the edited
//! record only. Kept by type, so that the document knows nothing of the features.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, PoisonError};

/// The derived values of one record, at most one of each type.
#[derive(Default)]
pub struct Derived {
    values: Mutex<Vec<(TypeId, Arc<dyn Any + Send + Sync>)>>,
}

impl std::fmt::Debug for Derived {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.values.lock().unwrap_or_else(PoisonError::into_inner).len();
        write!(formatter, "Derived({count} values)")
    }
}

impl Derived {
    /// The value of type `T`, when it was derived already.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let values = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let (_, value) = values.iter().find(|(kind, _)| *kind == TypeId::of::<T>())?;
        value.clone().downcast::<T>().ok()
    }

    /// Keeps `value` as the value of its type, unless another thread kept one first (both
    /// were derived from the same text, so they are equal): the one kept is returned.
    pub fn keep<T: Any + Send + Sync>(&self, value: T) -> Arc<T> {
        let mut values = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, kept)) = values.iter().find(|(kind, _)| *kind == TypeId::of::<T>()) {
            if let Ok(kept) = kept.clone().downcast::<T>() {
                return kept;
            }
        }
        let value = Arc::new(value);
        values.push((TypeId::of::<T>(), value.clone()));
        value
    }
}
