"""Build step: bundles libContentBlockerC.so into the package.

Where the library comes from, in order:
1. the file named by CONTENT_BLOCKER_LIBRARY (copied as it is);
2. when this directory is inside a checkout of swift-content-blocker (``../Package.swift``):
   ``swift build -c release --product ContentBlockerC`` there (``--scratch-path`` from
   CONTENT_BLOCKER_SCRATCH_PATH when set, else the checkout's ``.build``), then its
   ``release/libContentBlockerC.so``.
If neither works the package is installed without a bundled library, with a warning: it then needs
CONTENT_BLOCKER_LIBRARY at run time. CONTENT_BLOCKER_SKIP_SWIFT_BUILD=1 skips the build in step 2 and
copies an existing ``.build/release`` library.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LIBRARY = "libContentBlockerC.so"
HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent


def _warn(message: str) -> None:
    print(f"content-blocker: {message}", file=sys.stderr)


def _find_or_build_library():
    given = os.environ.get("CONTENT_BLOCKER_LIBRARY")
    if given:
        if not Path(given).is_file():
            raise SystemExit(f"content-blocker: CONTENT_BLOCKER_LIBRARY={given} is not a file")
        return Path(given)
    if not (CHECKOUT / "Package.swift").is_file():
        _warn("not inside a swift-content-blocker checkout: no library bundled")
        return None
    scratch = Path(os.environ.get("CONTENT_BLOCKER_SCRATCH_PATH") or CHECKOUT / ".build")
    built = scratch / "release" / LIBRARY
    if os.environ.get("CONTENT_BLOCKER_SKIP_SWIFT_BUILD") != "1":
        swift = shutil.which("swift")
        if swift is None:
            _warn("swift is not on PATH: cannot build the library")
        else:
            command = [swift, "build", "-c", "release", "--product", "ContentBlockerC",
                       "--package-path", str(CHECKOUT), "--scratch-path", str(scratch)]
            _warn("building the library: " + " ".join(command))
            result = subprocess.run(command, stdout=sys.stderr)
            if result.returncode != 0:
                _warn(f"swift build failed (exit {result.returncode})")
    if built.is_file():
        return built
    _warn(f"no {built}: no library bundled; set CONTENT_BLOCKER_LIBRARY at run time")
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = _find_or_build_library()
        if library is not None:
            target = Path(self.build_lib) / "content_blocker" / LIBRARY
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library, target)
            _warn(f"bundled {library}")


try:
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # older setuptools
    try:
        from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:
        _bdist_wheel = None

commands = {"build_py": BuildWithLibrary}
if _bdist_wheel is not None:
    class PlatformWheel(_bdist_wheel):
        """The wheel holds a native library: tag it for this platform, not as pure Python."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    commands["bdist_wheel"] = PlatformWheel

setup(cmdclass=commands)
