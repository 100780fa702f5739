"""Packaging glue that pyproject.toml cannot express.

The data folders live once, at the top of the repository, and ship inside the
package so a wheel install finds them with ``importlib.resources``:

    grammars/              -> rulediff/grammars/
    reports/               -> rulediff/reports/   (templates, static assets; nested)
    corpus/*.toml, corpus/**/*.toml -> rulediff/data/   (editions.toml, scenarios/*.toml)

Every other setting is in pyproject.toml.
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

#: package name -> (top-level folder, files to ship from it)
DATA_FOLDERS = {
    "rulediff.grammars": ("grammars", ["*.lark"]),
    "rulediff.reports": ("reports", ["**/*"]),
    "rulediff.data": ("corpus", ["*.toml", "**/*.toml"]),  # no scripts, no CR text
}

# A folder git does not have yet (an empty one) is left out rather than failing the build.
present = {name: spec for name, spec in DATA_FOLDERS.items() if (HERE / spec[0]).is_dir()}
code = find_namespace_packages(include=["rulediff", "rulediff.*"], exclude=["*.__pycache__"])


class BuildPy(build_py):
    """Data folders ship their data only: no Python modules (corpus/make_manifest.py)."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        if package in DATA_FOLDERS:
            return []
        return super().find_package_modules(package, package_dir)


setup(
    cmdclass={"build_py": BuildPy},
    packages=sorted({*code, *present}),
    package_dir={name: folder for name, (folder, _) in present.items()},
    package_data={
        # data files that sit beside the code (JSON schemas, TOML tables, templates)
        "": ["*.json", "*.toml", "*.lark", "*.j2", "*.html", "*.css", "*.js", "*.txt"],
        **{name: patterns for name, (_, patterns) in present.items()},
    },
    exclude_package_data={"": ["__pycache__/*", "*.pyc"]},
)
