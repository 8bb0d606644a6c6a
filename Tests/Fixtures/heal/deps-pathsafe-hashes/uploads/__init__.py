"""Where uploaded files are stored."""
