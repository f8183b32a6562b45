//! Shared helpers of the end-to-end tests: where the shared corpus and examples live.
