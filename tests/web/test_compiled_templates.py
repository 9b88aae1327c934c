"""Templates are compiled once per process, not once per app (pbem.app.COMPILED_TEMPLATES): a
second app renders from the first one's code, and an edited template is compiled again."""
from __future__ import annotations

import jinja2
import pytest

from pbem.app import COMPILED_TEMPLATES
from tests.conftest import make_app


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_second_app_renders_from_the_code_the_first_compiled(database_url, smtp, monkeypatch):
    first = make_app(database_url, smtp.port)
    assert first.test_client().get("/").status_code == 200
    compiled = []
    original = jinja2.Environment.compile

    def counted(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    second = make_app(database_url, smtp.port)
    assert second.jinja_env is not first.jinja_env
    page = second.test_client().get("/")
    assert page.status_code == 200 and "pbem" in page.get_data(as_text=True)
    assert compiled == []


def test_an_edited_template_is_compiled_again(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("first {{ x }}")

    def render():
        environment = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path),
                                         bytecode_cache=COMPILED_TEMPLATES)
        return environment.get_template("page.html").render(x=1)

    assert render() == "first 1"
    assert render() == "first 1"
    page.write_text("second {{ x }}")
    assert render() == "second 1"
