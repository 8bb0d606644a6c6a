// The Sandbox module; see DESIGN.md §1.
