"""Write compiler/pip/generated_tables.py, the LALR tables of Pip's grammar,
which the parser reads instead of having SLY build them at every start-up
(compiler/pip/tables.py); tests/test_startup.py checks that the committed
file holds the tables SLY builds.  Run it after changing the grammar:

    python tools/make_parse_tables.py
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from compiler.pip import tables  # noqa: E402
from compiler.pip.parser import PipParser  # noqa: E402

if __name__ == '__main__':
    tables.write(PipParser)
