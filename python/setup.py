"""Builds the sgk package from a built source tree: the Python modules, the
extension module (python/ext/) over libsgk's public C API, and a copy of
libsgk itself inside the package, found by the extension through an
$ORIGIN rpath, so that an installed sgk needs no environment variable.
libsgk_openvino.so, when adapters/openvino built it, is copied in too, and
so is libsgk_torch.so (sgk.torch) when adapters/torch built it against the
torch this package will run with.

    scripts/build && pip install ./python     (or: pip wheel ./python)

The library comes from the source tree's Autotools build (src/.libs/), or
from the build tree SGK_BUILD_DIR names (an out-of-tree build).
"""
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_TREE = os.path.dirname(HERE)
EXT_DIR = "ext"
# The name libsgk's dependents ask for (its soname), and the OpenVINO
# extension's libtool output.
LIBRARY = "libsgk.so.0"
OPENVINO_EXTENSION = "libsgk_openvino.so"
TORCH_ADAPTER = "libsgk_torch.so"


def build_tree():
    return os.path.abspath(os.environ.get("SGK_BUILD_DIR") or SOURCE_TREE)


class BuildWithLibrary(build_ext):
    """Links the extension against the built libsgk and copies the library
    (and the OpenVINO extension and the PyTorch adapter, when built) beside
    it."""

    def run(self):
        import numpy  # a build requirement (pyproject.toml)

        library = os.path.join(build_tree(), "src", ".libs", LIBRARY)
        if not os.path.exists(library):
            raise SystemExit(f"sgk: {library} is not built; run scripts/build in the source "
                             "tree first (or set SGK_BUILD_DIR to an out-of-tree build)")
        for ext in self.extensions:
            # include/ for sgk.h, src/ for the registry's operator rows
            ext.include_dirs += [os.path.join(SOURCE_TREE, "include"),
                                 os.path.join(SOURCE_TREE, "src"), numpy.get_include()]
            ext.extra_link_args += [library, "-Wl,-rpath,$ORIGIN"]
        super().run()
        package = os.path.dirname(self.get_ext_fullpath("sgk._sgk"))
        self._bundle(library, os.path.join(package, LIBRARY))
        openvino = os.path.join(build_tree(), "adapters", "openvino", ".libs",
                                OPENVINO_EXTENSION)
        if os.path.exists(openvino):
            self._bundle(openvino, os.path.join(package, OPENVINO_EXTENSION))
        torch_adapter = os.path.join(build_tree(), "adapters", "torch", ".libs", TORCH_ADAPTER)
        if os.path.exists(torch_adapter):
            self._bundle(torch_adapter, os.path.join(package, TORCH_ADAPTER))

    def _bundle(self, source, target):
        # the file itself, not libtool's symlink to it
        shutil.copyfile(os.path.realpath(source), target)
        shutil.copymode(os.path.realpath(source), target)


setup(
    ext_modules=[Extension(
        "sgk._sgk",
        sources=[os.path.join(EXT_DIR, name) for name in
                 ("module.c", "status.c", "arguments.c", "dtypes.c", "operands.c",
                  "operators.c", "oneshot.c", "plan.c", "queries.c")],
        depends=[os.path.join(EXT_DIR, name) for name in
                 ("common.h", "status.h", "arguments.h", "dtypes.h", "operands.h",
                  "operators.h", "oneshot.h", "plan.h", "queries.h")]
        + [os.path.join(SOURCE_TREE, "include", "sgk.h"),
           os.path.join(SOURCE_TREE, "src", "registry", "registry.h")],
        extra_compile_args=["-std=c11", "-fvisibility=hidden", "-Wall", "-Wextra"],
    )],
    cmdclass={"build_ext": BuildWithLibrary},
)
