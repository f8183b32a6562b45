//! Comment layout and markers (§12.1-§12.2, N001-N009) and the references inside comments resolved to the moves and variations they name (§12.3, N010-N019).
