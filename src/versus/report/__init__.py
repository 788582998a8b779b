"""Reports of an analysis: terminal, Markdown, JSON, PNG charts. One module per format."""
