"""The build backend of the quiltboard package (PEP 517), written with the standard library alone.

The package is one module, so a wheel is that module and its metadata in a zip: building it needs
nothing from PyPI, and ``pip install https://HOST/quiltboard-python.tar.gz`` works where only the
app is reachable. The app serves the source distribution (scripts/python-package.ts makes it, with
the app's version), so this backend only builds wheels from it.
"""

import base64
import hashlib
import os
import re
import zipfile

NAME = "quiltboard"
MODULE = "quiltboard.py"
SUMMARY = "Quiltboard's REST API from Python: submit predictions, read the leaderboard, download the data"
HERE = os.path.dirname(os.path.abspath(__file__))


def _version() -> str:
    with open(os.path.join(HERE, MODULE), encoding="utf-8") as file:
        found = re.search(r'^__version__ = "([^"]+)"', file.read(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"{MODULE} names no __version__")
    return found.group(1)


def _metadata(version: str) -> str:
    return f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\nRequires-Python: >=3.8\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "w", encoding="utf-8") as file:
        file.write(_metadata(_version()))
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    dist_info = f"{NAME}-{version}.dist-info"
    with open(os.path.join(HERE, MODULE), "rb") as file:
        files = {
            MODULE: file.read(),
            f"{dist_info}/METADATA": _metadata(version).encode("utf-8"),
            f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: quiltboard_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }
    # RECORD: every file with its SHA-256 (urlsafe base64 without padding) and size, then itself.
    record = "".join(
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}\n" for name, data in files.items()
    ) + f"{dist_info}/RECORD,,\n"
    files[f"{dist_info}/RECORD"] = record.encode("utf-8")
    wheel = f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    raise NotImplementedError("the source distribution is made by the app (scripts/python-package.ts): download it from https://HOST/quiltboard-python.tar.gz")
