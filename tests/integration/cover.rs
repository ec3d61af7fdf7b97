//! The cover kind: exact cover straight from the file.
