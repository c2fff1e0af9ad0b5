"""The version of pdpsym, written once: the package, the command line and the build
(``pyproject.toml``) read it from here; this module imports nothing, so any layer may."""

__version__ = "0.2.0"
