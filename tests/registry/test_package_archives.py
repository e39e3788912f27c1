"""Reading an uploaded archive (``server.registry.packages``): the bombs and tricks an archive
can hold are refused while it is read, without unpacking more than the caps."""

from __future__ import annotations

import hashlib
import io
import tarfile
import zipfile

from server.registry.packages import MAX_UNPACKED, read_archive
from tests.api.test_packages import tarball, wheel


def problems_of(name: str, data: bytes) -> list[str]:
    contents = read_archive(name, "1.0", data, hashlib.sha256(data).hexdigest())
    return [f"{e.field}: {e.message}" for e in contents.problems.errors]


def test_a_zip_bomb_is_refused_by_its_declared_sizes() -> None:
    big = b"\0" * (MAX_UNPACKED + 1)  # compresses to ~65 KB
    problems = problems_of("bomb", wheel("bomb", "1.0", {"bomb/__init__.py": big}))

    assert any("unpacked" in p for p in problems), problems


def test_a_gzip_bomb_is_read_no_further_than_the_cap() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        member = tarfile.TarInfo("package/huge.js")
        member.size = MAX_UNPACKED + 1
        archive.addfile(member, io.BytesIO(b"\0" * member.size))

    assert any("unpacked" in p for p in problems_of("bomb", buffer.getvalue()))


def test_links_in_either_archive_are_refused() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        link = tarfile.TarInfo("package/lib/index.js")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        info = zipfile.ZipInfo("evil/__init__.py")
        info.external_attr = 0o120777 << 16
        archive.writestr(info, "/etc/passwd")

    assert any("links" in p for p in problems_of("evil", buffer.getvalue()))
    assert any("links" in p for p in problems_of("evil", zipped.getvalue()))


def test_too_many_files_and_text_that_is_not_utf8_are_refused() -> None:
    many = {f"many/m{i}.py": "X = 1\n" for i in range(5_001)}
    latin = wheel("latin", "1.0", {"latin/__init__.py": "S = 'caf\xe9'\n".encode("latin-1")})

    assert any("more than" in p for p in problems_of("many", wheel("many", "1.0", many)))
    assert any("UTF-8" in p for p in problems_of("latin", latin))


def test_a_clean_tarball_keeps_its_code_and_finds_its_main() -> None:
    data = tarball("ok", "1.0", {"index.js": "module.exports = 1"}, main="./index")
    contents = read_archive("ok", "1.0", data, hashlib.sha256(data).hexdigest())

    assert contents.problems.errors == [] and contents.main == "index.js"
    assert sorted(contents.files) == ["index.js", "package.json"]
