// The SAST module; see DESIGN.md §1.
