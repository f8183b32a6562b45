//! The active identifier set of a record (handbook §4.3): standard letters, alternative letters through `[Redefine]`, and FAN figurines.
