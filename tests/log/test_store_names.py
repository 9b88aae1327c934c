"""`pbem.log.store` is the one name the layers above call the log by, though its readers and
replay live in rooms of their own (reading.py, replaying.py): every name the code or the
tests use must be answered by it, so a split never leaves a caller with an AttributeError."""
import re
from pathlib import Path

from pbem.log import store

ROOT = Path(__file__).resolve().parents[2]
USE = re.compile(r"\bstore\.([A-Za-z_][A-Za-z_0-9]*)\b")


def names_used():
    for folder in ("pbem", "tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "import store" not in text and "log.store" not in text:
                continue
            for name in USE.findall(text):
                yield name, path.relative_to(ROOT)


def test_every_store_name_a_caller_uses_is_answered():
    missing = sorted({f"store.{name} ({path})" for name, path in names_used()
                      if name not in ("py", "NAME") and not hasattr(store, name)})
    assert not missing, "pbem.log.store does not answer: " + ", ".join(missing)
