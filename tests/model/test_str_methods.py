"""TW106's `str-methods`: the data is `dir(str)`, and no result type loses a name it has."""

from __future__ import annotations

import importlib

import pytest

from toolwire.lint.model import Model, ResultType, index, load_model, preset_names


def test_str_methods_are_the_public_attributes_of_str() -> None:
    model = load_model()
    assert set(model.str_methods) == {n for n in dir(str) if not n.startswith("_")}


def test_a_name_a_result_type_declares_is_never_a_str_method() -> None:
    # A result whose text is its `text` field, with a `count` barrier and a `split` factory.
    shaped = ResultType("pkg.Reply", wire="text", barriers=("count",), factories=("split",))
    model = Model(result_types=(shaped,), str_methods=("count", "split", "strip", "text"))
    assert index(model).str_methods == {"strip"}


@pytest.mark.parametrize("name", [t.name for t in load_model(preset_names()).result_types])
def test_no_installed_result_type_has_a_flagged_str_method(name: str) -> None:
    module, _, attribute = name.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attribute)
    except ImportError:
        pytest.skip(f"{module} is not installed")
    flagged = index(load_model(preset_names())).str_methods
    assert not flagged & set(dir(cls)), f"{name} has these; TW106 would be a false alarm"
