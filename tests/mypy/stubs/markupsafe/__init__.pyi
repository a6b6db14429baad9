# Just enough of markupsafe for the TW402 examples (the real package ships types too).
from typing import Any

class Markup(str):
    def __new__(
        cls, base: object = "", encoding: str | None = None, errors: str = "strict"
    ) -> Markup: ...
    def format(self, *args: Any, **kwargs: Any) -> Markup: ...

def escape(s: object) -> Markup: ...
