// The Findings module; see DESIGN.md §1.
