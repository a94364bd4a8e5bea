"""Reading and writing whole files, each problem one PipError line."""
import os

from pipvm.core.errors import PipError


def read_file(path):
    """A file's bytes, or a one-line PipError."""
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        raise PipError(None, 'cannot read %s: %s' % (path, e.strerror or e)) from None


def write_file(path, data):
    """Write atomically: a failed write never leaves a half-written file."""
    import tempfile         # (here: its import, with shutil's, is 4 ms of a run's start-up)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix='.%s-' % os.path.basename(path))
        try:
            with os.fdopen(fd, 'wb') as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())          # on disk before it takes the name
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)     # as open() would have made it
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        raise PipError(None, 'cannot write %s: %s' % (path, e.strerror or e)) from None
