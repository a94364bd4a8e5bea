"""The registry of front ends (pipvm/play/languages.py): a language is found
by --lang or by a file's extension among the `pipvm.languages` entry points,
and a front end is imported only when it may be the one asked for."""
import pytest

from pipvm.core.errors import PipError
from pipvm.play import languages


class FakeEntryPoint:
    def __init__(self, name, extensions, loaded):
        self.name, self.extensions, self.loaded = name, extensions, loaded

    def load(self):
        self.loaded.append(self.name)
        return languages_record(self.name, self.extensions)


def languages_record(name, extensions):
    from pipvm.core.language import Language
    return Language(name, extensions, *[None] * (len(Language._fields) - 2))


@pytest.fixture
def registry(monkeypatch):
    """pip and a second language, as RECYCLE will register itself."""
    loaded = []
    points = {'pip': FakeEntryPoint('pip', ('.pip',), loaded),
              'recycle': FakeEntryPoint('recycle', ('.recycle', '.gdl'), loaded)}
    monkeypatch.setattr(languages, '_entry_points', lambda: points)
    languages._load.cache_clear()
    yield loaded
    languages._load.cache_clear()


def test_the_extension_chooses_and_lang_overrides_it(registry):
    assert languages.for_path('games/g.GDL').name == 'recycle'
    assert languages.for_path('g.recycle').name == 'recycle'
    assert languages.for_path('g.pip').name == 'pip'
    assert languages.for_path('g.pip', 'recycle').name == 'recycle'
    assert languages.installed() == ['pip', 'recycle']


def test_lang_imports_only_the_front_end_it_names(registry):
    languages.named('recycle')
    assert registry == ['recycle']


def test_an_unknown_language_or_extension_is_one_line(registry, tmp_path):
    with pytest.raises(PipError) as e:
        languages.named('cobol')
    assert str(e.value) == 'Error: --lang cobol: no such language (installed: pip, recycle)'
    game = tmp_path / 'g.txt'
    game.write_text('')
    with pytest.raises(PipError) as e:
        languages.for_path(str(game))
    assert str(e.value) == ('Error: %s: no language reads .txt files; name one with --lang '
                            '(installed: pip, recycle)' % game)
    with pytest.raises(PipError) as e:
        languages.for_path(str(tmp_path / 'missing'))
    assert str(e.value).startswith('Error: cannot read ')
