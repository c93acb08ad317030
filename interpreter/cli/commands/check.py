"""`referee check`: rules files (and folders of them) checked, their diagnostics printed."""
from __future__ import annotations

import os
from pathlib import Path

from ..common import loaded, print_json
from ..errors import ERRORS, OK


def checked_files(paths) -> list:
    """The files of `check FILE...`: each FILE, and for a folder every .rules file in it and
    in its subfolders (hidden ones aside), sorted; (folder, None) for a folder without any."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append((path, path))
            continue
        found = sorted(p for p in Path(path).rglob("*.rules")
                       if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts))
        files.extend((path, str(p)) for p in found)
        if not found:
            files.append((path, None))
    return files


def cmd_check(args) -> int:
    report = []
    all_ok = True
    for folder, path in checked_files(args.files):
        if path is None:
            all_ok = False
            report.append({"file": folder, "ok": False, "diagnostics": [], "error": "no .rules file in this folder"})
            if not args.json:
                args.console.report([f"{folder}: no .rules file in this folder"])
            continue
        game, diagnostics, sources = loaded(path, params=dict(args.param))
        ok = game is not None and not diagnostics
        all_ok = all_ok and ok
        report.append({"file": path, "ok": ok, "diagnostics": [d.to_json() for d in diagnostics]})
        if args.json:
            continue
        if ok:
            args.console.report([f"{path}: ok"])
        else:
            args.console.diagnostics(diagnostics, sources)
            count = len(diagnostics)
            args.console.report([f"{path}: {count} error{'s' if count != 1 else ''}"])
    if args.json:
        print_json({"files": report})
    return OK if all_ok else ERRORS
