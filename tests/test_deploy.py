"""The supervisor files in deploy/ (docs/deploy.md, "Supervised by systemd"), checked as
far as a machine without a running systemd allows: the environment file names only real
settings, each unit's command parses with those settings as the room's command line
would, and ``systemd-analyze verify`` finds nothing to say about the units."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import click
import pytest

from tripletopper.cli import cli

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
UNITS = DEPLOY / "systemd"
ENV_FILE = DEPLOY / "room.env.example"
OTHERS = {"FORWARDED_ALLOW_IPS"}
"""Variables the environment file may set that are not the room's options (uvicorn's)."""
PORT = "8040"


def settings() -> set[str]:
    """The environment variable of every option of ``serve`` and ``db``."""
    db = cli.commands["db"]
    assert isinstance(db, click.Group)
    found = set()
    for command in [cli.commands["serve"], *db.commands.values()]:
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.envvar, str):
                found.add(param.envvar)
    return found


def environment(commented: bool = False) -> dict[str, str]:
    """The example environment file's variables (with ``commented``, those shown commented
    out too)."""
    found = {}
    for line in ENV_FILE.read_text().splitlines():
        if commented:
            line = line.removeprefix("#")
        match = re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line.strip())
        if match:
            found[match[1]] = match[2]
    return found


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / name).read_text())
    return parser


def test_the_environment_file_names_only_real_settings():
    names = set(environment(commented=True))
    assert {"TRIPLETOPPER_DB", "TRIPLETOPPER_REDIS", "TRIPLETOPPER_METRICS_TOKEN"} <= names
    assert names - settings() - OTHERS == set()


def test_the_rooms_command_parses_with_the_environment_file(monkeypatch):
    """ExecStart of ``tripletopper@.service``, its ``%i`` a port, parsed by the real command
    with the example's settings in the environment (commented ones too): every option
    and value is one ``serve`` accepts."""
    for name, value in environment(commented=True).items():
        monkeypatch.setenv(name, value)
    service = unit("tripletopper@.service")["Service"]
    assert service["EnvironmentFile"] == "/etc/tripletopper/room.env"
    binary, name, *args = shlex.split(service["ExecStart"].replace("%i", PORT))
    assert binary.endswith("/bin/tripletopper") and name == "serve"
    parent = click.Context(cli, info_name="tripletopper")
    parsed = cli.commands[name].make_context(name, args, parent=parent).params
    assert parsed["port"] == int(PORT)
    assert parsed["db_url"] == environment()["TRIPLETOPPER_DB"]
    assert parsed["bot_workers"] == 1 and parsed["host"] == "127.0.0.1"
    assert parsed["metrics_token"] == environment(commented=True)["TRIPLETOPPER_METRICS_TOKEN"]


def test_the_health_check_asks_the_port_of_its_instance():
    command = unit("tripletopper-health@.service")["Service"]["ExecStart"]
    assert "http://127.0.0.1:%i/healthz" in command
    assert "systemctl restart tripletopper@%i.service" in command
    assert unit("tripletopper-health@.timer")["Timer"]["OnUnitActiveSec"] == "15"


def test_systemd_analyze_verify_finds_nothing(tmp_path):
    """Each unit as an instance, its paths made this machine's (the installed command, the
    example environment file): no error and no warning."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        warnings.warn("systemd-analyze is not installed: the units are NOT verified", stacklevel=1)
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    command = Path(sys.executable).with_name("tripletopper")
    assert command.exists(), command
    paths = []
    for source in sorted(UNITS.iterdir()):
        text = source.read_text()
        text = text.replace("/opt/tripletopper/.venv/bin/tripletopper", str(command))
        text = text.replace("/etc/tripletopper/room.env", str(ENV_FILE))
        name = source.name.replace("@.", f"@{PORT}.")
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    result = subprocess.run(
        [analyze, "verify", "--man=no", *paths], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
