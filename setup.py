"""Only the package list lives here (pyproject.toml has the rest): every package under pbem/,
plus the root folders templates/, migrations/ and deploy/ mapped into it by pyproject's
package-dir."""
import shutil

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py


class FreshBuildPy(build_py):
    """Start from an empty build/lib: pip builds in the checkout's build/, and a module or a
    migration removed since the last build must not ride along into the next wheel (a
    rollback once installed the newer release's migrations with the older code)."""

    def run(self):
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()


setup(packages=find_packages(include=["pbem", "pbem.*"])
      + ["pbem.templates", "pbem.migrations", "pbem.deploy"],
      cmdclass={"build_py": FreshBuildPy})
