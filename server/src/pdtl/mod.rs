//! PDTL, the position description by transversal lines (handbook §9): parsing with the P-codes and canonical printing.
