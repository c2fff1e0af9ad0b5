"""Writes that never destroy (pdpsym.app.writes): every output flag writes *through* the
path it is given. Expected contents are the bytes the test itself passes in; expected
modes follow from POSIX open(2) (0666 less the umask)."""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
from pathlib import Path

import pytest

from pdpsym.app import writes
from pdpsym.app.cli import main
from pdpsym.app.writes import write_output
from pdpsym.core.errors import InputError

MODEL = {"variables": ["x1", "x2"], "rows": [["0", "0", "1/2"], ["1", "1", "1/2"]]}
MECH = {"kind": "randomized-response", "keep": "3/4"}


def _audit_files(tmp: Path) -> tuple[str, str]:
    m, k = tmp / "m.json", tmp / "k.json"
    m.write_text(json.dumps(MODEL))
    k.write_text(json.dumps(MECH))
    return str(m), str(k)


def _one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], flag: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flag in err and "Traceback" not in err, err


def test_a_write_through_a_symlink_to_a_fifo_reaches_its_reader(tmp_path: Path) -> None:
    fifo, link = tmp_path / "pipe", tmp_path / "link"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    t = threading.Thread(target=reader)
    t.start()
    write_output(link, "hello\n", "--out")
    t.join(30)
    assert got == [b"hello\n"]
    assert link.is_symlink() and stat.S_ISFIFO(fifo.stat().st_mode)  # nothing replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "pipe"]


def test_the_audit_curve_goes_through_a_symlink_to_a_fifo(tmp_path: Path, capsys) -> None:
    m, k = _audit_files(tmp_path)
    fifo, link = tmp_path / "pipe", tmp_path / "curve.csv"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    got: list[bytes] = []
    t = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    t.start()
    assert main(["audit", m, k, "--target", "x1", "--notions", "dp", "--curve", str(link)]) == 0
    t.join(30)
    assert got and got[0].startswith(b"notion,eps,delta_exact")
    assert link.is_symlink() and stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["audit", "figure", "oracle"])
def test_a_symlink_to_dev_full_is_a_one_line_exit_2_and_stays_a_symlink(
    tmp_path: Path, capsys, command: str
) -> None:
    link = tmp_path / "full"
    link.symlink_to("/dev/full")
    m, k = _audit_files(tmp_path)
    argv, flag = {
        "audit": (
            ["audit", m, k, "--target", "x1", "--notions", "dp", "--curve", str(link)],
            "--curve",
        ),
        "figure": (["figure", "lmm2016.fig6", "--scale", "quick", "--out", str(link)], "--out"),
        "oracle": (["oracle", "export", "--out", str(link)], "--out"),
    }[command]
    _one_line_exit_2(capsys, argv, flag)
    assert link.is_symlink() and os.readlink(link) == "/dev/full"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "k.json", "m.json"]


def test_a_symlink_to_a_regular_file_writes_the_file_and_keeps_the_link(tmp_path: Path) -> None:
    target, link = tmp_path / "real.csv", tmp_path / "link.csv"
    target.write_text("old")
    target.chmod(0o640)
    link.symlink_to(target)
    write_output(link, "new", "--out")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # an existing file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]


def test_a_new_file_has_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_output(tmp_path / "f", b"x", "--out")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o666 & ~0o027


def test_a_directory_is_refused_naming_the_flag_and_nothing_is_left(tmp_path: Path, capsys) -> None:
    m, k = _audit_files(tmp_path)
    d = tmp_path / "dir"
    d.mkdir()
    _one_line_exit_2(capsys, ["audit", m, k, "--target", "x1", "--curve", str(d)], "--curve")
    _one_line_exit_2(capsys, ["figure", "lmm2016.fig6", "--out", str(d)], "--out")
    _one_line_exit_2(capsys, ["oracle", "export", "--out", str(d)], "--out")
    assert list(d.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["audit", "M", "K", "--target", "x1", "--curve", ""], "--curve"),
        (["figure", "lmm2016.fig6", "--out", ""], "--out"),
        (["oracle", "export", "--out", ""], "--out"),
    ],
)
def test_an_empty_path_is_an_error(tmp_path: Path, capsys, argv: list[str], flag: str) -> None:
    m, k = _audit_files(tmp_path)
    argv = [m if a == "M" else k if a == "K" else a for a in argv]
    _one_line_exit_2(capsys, argv, flag)


def test_a_read_only_file_is_refused_and_kept(tmp_path: Path) -> None:
    f = tmp_path / "ro"
    f.write_text("keep")
    f.chmod(0o444)
    if os.access(f, os.W_OK):  # root writes anyway
        pytest.skip("running as root")
    with pytest.raises(InputError, match="--out"):
        write_output(f, "x", "--out")
    assert f.read_text() == "keep"


def test_a_full_disk_leaves_the_target_and_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    f = tmp_path / "f"
    f.write_text("previous")
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        if fd > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(writes.os, "write", full)
    with pytest.raises(InputError, match="No space left"):
        write_output(f, "new", "--out")
    assert f.read_text() == "previous" and [p.name for p in tmp_path.iterdir()] == ["f"]


def test_a_missing_directory_and_a_device_that_is_no_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such directory"):
        write_output(tmp_path / "nope" / "f", "x", "--out")
    sock = tmp_path / "s"
    import socket

    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(sock))
        with pytest.raises(InputError, match="not a file"):
            write_output(sock, "x", "--out")
    finally:
        s.close()


def test_a_pipe_with_no_reader_is_refused_not_waited_on_forever(
    tmp_path: Path, monkeypatch
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    monkeypatch.setattr(writes, "PIPE_WAIT_S", 0.0)
    with pytest.raises(InputError, match="no reader"):
        write_output(fifo, "x", "--out")
