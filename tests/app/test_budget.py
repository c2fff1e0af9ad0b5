"""The progress bar writes to stderr only, and only when enabled."""

from pdpsym.app.budget import Progress


def test_enabled_bar_goes_to_stderr_with_label_and_total(capsys):
    with Progress(7, "demo run", enabled=True) as bar:
        for i in range(7):
            bar.update(1, f"step {i}")
    out = capsys.readouterr()
    assert out.out == ""
    assert "demo run" in out.err
    assert "7/7" in out.err  # tqdm's count: done/total


def test_disabled_bar_writes_nothing(capsys):
    with Progress(7, "demo run", enabled=False) as bar:
        for _ in range(7):
            bar.update(1, "step")
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
