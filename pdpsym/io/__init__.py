"""Input and output: model files (JSON, TOML, CSV) and tables (Markdown, LaTeX, CSV, JSON)."""
