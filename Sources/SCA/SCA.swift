// The SCA module; see DESIGN.md §1.
