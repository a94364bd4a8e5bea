"""RECYCLE (CardStock's game language, seed 001): a second front end onto Pip's checked program."""
