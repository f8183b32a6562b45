//! The tag rules of the handbook (§10, §14.6): order, roster, repeatable tags, value formats and names (T-codes), beyond the content-affecting tags read by `setup`.
