"""Export blog posts as static files."""
