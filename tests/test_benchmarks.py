"""The measurement records in benchmarks/results/ are data: each file a
header line of column names and one tab-separated row per figure, every row
as wide as its header (benchmarks/README.md, "How to measure")."""
import glob
import os
import re

import pytest

from .test_tools import ROOT

RESULTS = os.path.join(ROOT, 'benchmarks', 'results')
FILES = sorted(glob.glob(os.path.join(RESULTS, '*.tsv')))


def rows_of(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    assert text.endswith('\n'), '%s: the last line has no newline' % path
    return [line.split('\t') for line in text[:-1].split('\n')]


def test_there_are_records():
    assert len(FILES) >= 8


@pytest.mark.parametrize('path', FILES, ids=os.path.basename)
def test_every_row_is_as_wide_as_its_header(path):
    header, *rows = rows_of(path)
    assert rows, '%s has no rows' % path
    assert all(header) and len(set(header)) == len(header), header
    for number, row in enumerate(rows, 2):
        assert len(row) == len(header), '%s:%d: %d columns, the header has %d' % (
            os.path.basename(path), number, len(row), len(header))


def test_the_page_names_files_that_exist():
    with open(os.path.join(ROOT, 'benchmarks', 'README.md'), encoding='utf-8') as f:
        page = f.read()
    named = set(re.findall(r'`(?:results/)?([a-z_]+\.tsv)`', page))
    assert named and all(os.path.exists(os.path.join(RESULTS, name)) for name in named), named
