//! The 24 castling tokens of the handbook (§6.6) with the hexes of King and Rooks for each side.
