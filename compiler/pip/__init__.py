"""Pip's front end: lexer, parser, syntax tree, checker, printer, highlighter."""
