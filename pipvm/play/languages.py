"""The registry of front ends: which language reads a source file.

Each language is a pipvm.core.language.Language that its package registers
under the `pipvm.languages` entry point group (as Pygments finds lexers), so
the runtime never imports a front end: `--lang NAME` names one, and without
it a file's extension chooses.  Bytecode (.pipc) needs no language, and the
loader asks this module only for sources: reading entry points costs
importlib.metadata, which `pipvm run GAME.pipc` never pays.
"""
import functools
import os

from pipvm.core.errors import PipError
from pipvm.core.files import read_file

GROUP = 'pipvm.languages'


@functools.cache
def _entry_points():
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name)}


@functools.cache
def _load(name):
    return _entry_points()[name].load()


def installed():
    """The names of the languages installed."""
    return list(_entry_points())


def _names():
    return ', '.join(installed()) or 'none; installing pipvm (pip install -e .) registers Pip'


def named(name):
    """The language `--lang name` means (only its front end is imported), or PipError."""
    if name not in _entry_points():
        raise PipError(None, '--lang %s: no such language (installed: %s)' % (name, _names()))
    return _load(name)


def for_path(path, lang=None):
    """The language of the source file at path: `--lang`'s, else its extension's."""
    if lang is not None:
        return named(lang)
    extension = os.path.splitext(path)[1]
    for name in installed():        # front ends imported in name order until one reads it
        if extension.lower() in _load(name).extensions:
            return _load(name)
    read_file(path)                 # a file that cannot be read says so first
    raise PipError(None, '%s: no language reads %s files; name one with --lang (installed: %s)'
                   % (path, extension or 'extensionless', _names()))
