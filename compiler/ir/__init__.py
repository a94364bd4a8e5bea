"""The checked program a front end hands to the code generator, and its static types."""
