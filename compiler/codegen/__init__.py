"""Code generation: the checked program to pipc bytecode."""
