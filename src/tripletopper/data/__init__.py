"""Data files shipped with the package (the Quiz Show question bank)."""
