//! Applying a half-move to a position (handbook §8) with the coherence checks of §13 (K-codes).
