"""libimcl through ctypes: the compiler in this process (driver/imcl.h), for the space
dumps and the generated code of each configuration without one imcl process each.

Found as $IMCL_LIB, else libimcl.so beside the imcl executable in use (build/ holds
both) or in ../lib of its folder; IMCL_LIB=none turns it off (then everything goes
through the executable, as it does when no library is found)."""

import ctypes
import json
import os
import threading

_lock = threading.Lock()  # the library is not thread-safe
_loaded = {}


class Library:
    def __init__(self, path):
        lib = ctypes.CDLL(path)
        self.path = path
        c, p, i, s = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
        for name, res, args in (
            ("imcl_version", c, []),
            ("imcl_open", p, [c, c, c]),
            ("imcl_unit_status", i, [p]),
            ("imcl_unit_diagnostics", c, [p]),
            ("imcl_close", None, [p]),
            ("imcl_generate", p, [p, c, c]),
            ("imcl_dump_space", p, [p, c, c]),
            ("imcl_result_status", i, [p]),
            ("imcl_result_diagnostics", c, [p]),
            ("imcl_result_count", i, [p]),
            ("imcl_result_name", c, [p, i]),
            ("imcl_result_text", p, [p, i]),
            ("imcl_result_length", s, [p, i]),
            ("imcl_result_free", None, [p]),
        ):
            f = getattr(lib, name)
            f.restype = res
            f.argtypes = args
        self.lib = lib
        self.version = lib.imcl_version().decode()

    def open(self, path, size=None, kernel=None, shared_limit=None):
        return Unit(self, path, size, kernel, shared_limit)


class Unit:
    """One source parsed once (imcl_open), with the options every call shares."""

    def __init__(self, library, path, size, kernel, shared_limit):
        self.library = library
        options = {}
        if size:
            options["size"] = "x".join(str(int(v)) for v in size)
        if kernel:
            options["kernel"] = kernel
        if shared_limit:
            options["shared_limit"] = int(shared_limit)
        lib = library.lib
        with _lock:
            self._u = lib.imcl_open(os.fsencode(path), None, json.dumps(options).encode())
        if not self._u:
            raise MemoryError("imcl_open")

    def __del__(self):
        u, self._u = getattr(self, "_u", None), None
        if u:
            with _lock:
                self.library.lib.imcl_close(u)

    def _result(self, r):
        lib = self.library.lib
        try:
            status = lib.imcl_result_status(r)
            diag = (lib.imcl_result_diagnostics(r) or b"").decode(errors="replace")
            files = {}
            for i in range(lib.imcl_result_count(r)):
                name = lib.imcl_result_name(r, i).decode()
                files[name] = ctypes.string_at(lib.imcl_result_text(r, i),
                                               lib.imcl_result_length(r, i)).decode()
            return status, diag, files
        finally:
            lib.imcl_result_free(r)

    def generate(self, config, backends):
        """(status, diagnostics, {file name: text}) of one configuration (a dict)."""
        with _lock:
            r = self.library.lib.imcl_generate(self._u, json.dumps(config).encode(), backends.encode())
            return self._result(r)

    def dump(self, fmt, backend):
        """(status, diagnostics, document text) of --dump-space=FMT."""
        with _lock:
            r = self.library.lib.imcl_dump_space(self._u, fmt.encode(), backend.encode())
            status, diag, files = self._result(r)
        return status, diag, files.get("space.json", "")


def find_library(exe):
    """The libimcl.so to use with the imcl executable `exe`, or None."""
    env = os.environ.get("IMCL_LIB")
    if env:
        return None if env.lower() in ("none", "0", "off") else env
    folder = os.path.dirname(os.path.abspath(exe))
    for cand in (os.path.join(folder, "libimcl.so"), os.path.join(folder, "..", "lib", "libimcl.so")):
        if os.path.isfile(cand):
            return os.path.abspath(cand)
    return None


def load(exe):
    """The library that goes with `exe`, loaded once, or None (no library, one that
    cannot be loaded, or of another version than the executable's)."""
    path = find_library(exe)
    if not path:
        return None
    if path not in _loaded:
        try:
            _loaded[path] = Library(path)
        except (OSError, AttributeError):
            _loaded[path] = None
    return _loaded[path]
