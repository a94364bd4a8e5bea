"""Loading a game: a validated program from a .pipc, or from a source file
compiled in memory by its language (pipvm/play/languages.py); and the
engines that play it (pipvm/engine/engines.py: the VM with its compiled
tier, by default; the VM's loop alone with `--engine loop`; or the
language's reference interpreter with `--engine reference`).

`--set` makes the variant on the way in, so that a program is decoded once
and the path from a .pipc to the engine never comes back to a file it has
left (tests/test_load_path.py): a .pipc's initialisers are replaced while
pipc.load validates them; a source's checked program before it is compiled.

An engine factory is (table, rng) -> engine, an engine anything with
`play()` returning the winner's name (or None when main returns), and
`players`/`teams` for who played.
"""
from pipvm.core.plain import NamedTuple
from pipvm.isa import pipc
from pipvm.core.errors import PipError
from pipvm.core.files import read_file
from pipvm.play import overrides
from pipvm.play.table import TableGame
from pipvm.engine import engines
from pipvm.engine.vm import Image


class LoadedGame(NamedTuple):
    program: object            # the validated pipc.Program (the variant, with --set)
    checked: object            # the language's checked program; None from a .pipc
    settings: list             # the overrides.Settings applied
    language: object           # the pipvm.core.language.Language; None for a .pipc


def is_bytecode(path, data):
    return path.endswith('.pipc') or data.startswith(pipc.MAGIC)


def load_program(path, lang=None):
    """A validated program from a .pipc file, or compiled in memory from source."""
    return load_variant(path, (), lang).program


def load_variant(path, sets=(), lang=None):
    """The LoadedGame in path, with the initial values `--set NAME=VALUE`
    gives (sets: [(name, text)]); lang: `--lang`, for a source."""
    data = read_file(path)
    if is_bytecode(path, data):
        initial = overrides.Initial(list(sets), path) if sets else None
        program = pipc.load(data, path, initial)
        return LoadedGame(program, None, initial.settings if initial else [], None)
    from pipvm.play import languages
    language = languages.for_path(path, lang)
    checked = language.check(language.read_source(path))
    settings = []
    if sets:
        settings = overrides.resolve(language.declarations(checked), sets, path)
        checked = language.with_values(checked, overrides.values(settings))
    # Through the file format, so a source runs exactly as its .pipc would.
    program = pipc.load(pipc.dump(language.compile(checked)), path)
    return LoadedGame(program, checked, settings, language)


def fingerprint(program):
    """A digest of the compiled program: a record names the game it was played with."""
    import hashlib          # (here: its import loads OpenSSL, 3 ms of a run's start-up)
    return hashlib.sha256(pipc.dump(program)).hexdigest()


def vm_engine(program, max_steps=None, fuse=True, engine=engines.DEFAULT):
    """An engine factory for a validated pipc.Program on the VM: engine
    `compiled` (with the compiled tier) or `loop` (fuse=False: without
    superinstructions, to measure what they buy)."""
    image = Image(program, fuse, engines.compiled(engine))
    return lambda table, rng: TableGame(image, table, rng, max_steps)


def load_engine(path, engine=engines.DEFAULT, max_steps=None, fuse=True, sets=(), lang=None):
    """(program, engine factory) for the game in path.  The program is the
    compiled one whichever engine runs it (it knows the player counts)."""
    loaded = load_variant(path, sets, lang)
    return loaded.program, engine_for(loaded, path, engine, max_steps, fuse)


def engine_for(loaded, path, engine=engines.DEFAULT, max_steps=None, fuse=True):
    """The engine factory that plays a LoadedGame on the engine named (engines.NAMES)."""
    if engines.named(engine) != engines.REFERENCE:
        return vm_engine(loaded.program, max_steps, fuse, engine)
    if loaded.checked is None:      # the reference walks the checked program
        raise PipError(None, '%s: the reference engine runs sources, not bytecode' % path)
    interpreter = loaded.language.interpreter
    return lambda table, rng: interpreter(loaded.checked, table, rng, max_steps)
