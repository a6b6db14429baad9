"""Where the guard looks: HTTP clients and the frameworks' model entry points.

Every patch only reads: the request, the messages and the reply are passed on as they
came, and a module that is not installed is not imported. Each patch is undone by
``unpatch``.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import sys
from collections.abc import Callable
from typing import Any

from toolwire.guard._walk import texts

Inspect = Callable[[list[str], str], object]
Saw = Callable[[list[str]], None]

# Set while a model entry point runs, so that the HTTP request it makes, or the
# subclass method it reaches through super(), is not reported a second time.
_inside: contextvars.ContextVar[bool] = contextvars.ContextVar("toolwire_guard", default=False)


def _printable(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode().replace("\n", "\\n")


def _decode(body: object) -> str | None:
    if isinstance(body, str):
        return body
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body).decode("utf-8", "replace")
    return None  # a stream: reading it would change what is sent


class Patcher:
    def __init__(self, inspect_texts: Inspect, saw: Saw) -> None:
        self._inspect = inspect_texts
        self._saw = saw
        self._undo: list[Callable[[], None]] = []
        self.patched: list[str] = []

    def patch_loaded(self) -> None:
        """Patches each client and framework imported since the last call (cheap if none)."""
        for name in ("httpx", "httpx2"):  # httpx2: the fork newer anthropic clients use
            if name not in self.patched:
                self.patch_httpx(name)
        if "requests" not in self.patched:
            self.patch_requests()
        self.patch_frameworks()

    # --- bookkeeping ------------------------------------------------------------------

    def _set(self, owner: Any, name: str, value: Any) -> None:
        had = name in owner.__dict__
        old = owner.__dict__.get(name)

        def undo() -> None:
            if had:
                setattr(owner, name, old)
            else:
                delattr(owner, name)

        setattr(owner, name, value)
        self._undo.append(undo)

    def unpatch(self) -> None:
        while self._undo:
            self._undo.pop()()
        self.patched.clear()

    # --- HTTP -------------------------------------------------------------------------

    def _http_request(self, method: str, url: str, body: str | None, client: str) -> None:
        if _inside.get():
            return
        found = [url] if body is None else [url, body]
        self._inspect(found, _printable(f"{method} {url} ({client})"))

    def patch_httpx(self, name: str = "httpx") -> None:
        httpx = _optional(name)
        if httpx is None:
            return
        patcher = self

        def body_of(request: Any) -> str | None:
            try:
                return _decode(request.content)
            except httpx.RequestNotRead:
                return None

        def reply_of(response: Any) -> None:
            if hasattr(response, "_content"):  # read already (not a stream)
                text = _decode(response.content)
                if text is not None:
                    patcher._saw([text])

        sync_send = httpx.Client.send
        async_send = httpx.AsyncClient.send

        @functools.wraps(sync_send)
        def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            patcher._http_request(request.method, str(request.url), body_of(request), name)
            response = sync_send(self, request, *args, **kwargs)
            reply_of(response)
            return response

        @functools.wraps(async_send)
        async def asend(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            patcher._http_request(request.method, str(request.url), body_of(request), name)
            response = await async_send(self, request, *args, **kwargs)
            reply_of(response)
            return response

        self._set(httpx.Client, "send", send)
        self._set(httpx.AsyncClient, "send", asend)
        self.patched.append(name)

    def patch_requests(self) -> None:
        sessions = _optional("requests.sessions")
        if sessions is None:
            return
        patcher = self
        original = sessions.Session.send

        @functools.wraps(original)
        def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            body = _decode(request.body)
            patcher._http_request(str(request.method), str(request.url), body, "requests")
            response = original(self, request, *args, **kwargs)
            content = getattr(response, "_content", False)
            if isinstance(content, bytes):
                patcher._saw([content.decode("utf-8", "replace")])
            return response

        self._set(sessions.Session, "send", send)
        self.patched.append("requests")

    # --- framework models -------------------------------------------------------------

    def _wrap(self, original: Any, params: tuple[str, ...], where: str) -> Any:
        patcher = self
        signature = inspect.signature(original)

        def given(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
            try:
                bound = signature.bind_partial(*args, **kwargs).arguments
            except TypeError:
                return texts(args[1:2])
            return texts([bound.get(name) for name in params])

        if inspect.iscoroutinefunction(original):

            @functools.wraps(original)
            async def awrapper(*args: Any, **kwargs: Any) -> Any:
                if _inside.get():
                    return await original(*args, **kwargs)
                patcher._inspect(
                    given(args, kwargs), _printable(f"{where} ({type(args[0]).__name__})")
                )
                token = _inside.set(True)
                try:
                    result = await original(*args, **kwargs)
                finally:
                    _inside.reset(token)
                patcher._saw(texts(result))
                return result

            awrapper.__toolwire_guard__ = True  # type: ignore[attr-defined]
            return awrapper

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _inside.get():
                return original(*args, **kwargs)
            patcher._inspect(given(args, kwargs), _printable(f"{where} ({type(args[0]).__name__})"))
            token = _inside.set(True)
            try:
                result = original(*args, **kwargs)
            finally:
                _inside.reset(token)
            if not inspect.isgenerator(result) and not inspect.isasyncgen(result):
                patcher._saw(texts(result))
            return result

        wrapper.__toolwire_guard__ = True  # type: ignore[attr-defined]
        return wrapper

    def wrap_family(self, base: type, methods: dict[str, tuple[str, ...]], framework: str) -> None:
        """Wraps ``methods`` on ``base`` and on every subclass defining its own, now and later."""
        patcher = self

        def wrap_class(cls: type) -> None:
            for name, params in methods.items():
                original = cls.__dict__.get(name)
                if not callable(original) or getattr(original, "__toolwire_guard__", False):
                    continue
                if getattr(original, "__isabstractmethod__", False):
                    continue
                where = f"{framework} {cls.__name__}.{name}"
                patcher._set(cls, name, patcher._wrap(original, params, where))

        stack = [base]
        while stack:
            cls = stack.pop()
            wrap_class(cls)
            stack.extend(cls.__subclasses__())

        own = base.__dict__.get("__init_subclass__")

        def init_subclass(cls: type[Any], /, **kwargs: Any) -> None:
            if own is not None:
                own.__get__(None, cls)(**kwargs)
            else:
                super(base, cls).__init_subclass__(**kwargs)  # type: ignore[arg-type]
            wrap_class(cls)

        self._set(base, "__init_subclass__", classmethod(init_subclass))
        self.patched.append(framework)

    def patch_frameworks(self) -> None:
        families: list[tuple[str, str, dict[str, tuple[str, ...]], str]] = [
            (
                "langchain_core.language_models.chat_models",
                "BaseChatModel",
                {
                    "_generate_with_cache": ("messages", "stop", "kwargs"),
                    "_agenerate_with_cache": ("messages", "stop", "kwargs"),
                },
                "langchain",
            ),
            (
                "pydantic_ai.models",
                "Model",
                {
                    "request": ("messages", "model_request_parameters"),
                    "request_stream": ("messages", "model_request_parameters"),
                },
                "pydantic-ai",
            ),
            (
                "agents.models.interface",
                "Model",
                {
                    "get_response": ("system_instructions", "input"),
                    "stream_response": ("system_instructions", "input"),
                },
                "openai-agents",
            ),
            (
                "smolagents.models",
                "Model",
                {"generate": ("messages",), "generate_stream": ("messages",)},
                "smolagents",
            ),
            (
                "crewai.llms.base_llm",
                "BaseLLM",
                {"call": ("messages",), "acall": ("messages",)},
                "crewai",
            ),
            (
                "google.adk.models.base_llm",
                "BaseLlm",
                {"generate_content_async": ("llm_request",)},
                "google-adk",
            ),
        ]
        for module_name, class_name, methods, framework in families:
            if framework in self.patched:
                continue
            module = _optional(module_name)
            base = getattr(module, class_name, None) if module is not None else None
            if isinstance(base, type):
                self.wrap_family(base, methods, framework)
        self._patch_llamaindex()

    def _patch_llamaindex(self) -> None:
        instrumentation = _optional("llama_index.core.instrumentation")
        if instrumentation is None or "llamaindex" in self.patched:
            return
        from llama_index.core.instrumentation.event_handlers import BaseEventHandler
        from llama_index.core.instrumentation.events import llm

        patcher = self

        class GuardHandler(BaseEventHandler):
            @classmethod
            def class_name(cls) -> str:
                return "ToolwireGuard"

            def handle(self, event: Any, **kwargs: Any) -> None:
                if isinstance(event, llm.LLMChatStartEvent):
                    where = f"llamaindex chat ({event.model_dict.get('class_name', 'LLM')})"
                    patcher._inspect(texts(event.messages), _printable(where))
                elif isinstance(event, llm.LLMCompletionStartEvent):
                    where = f"llamaindex completion ({event.model_dict.get('class_name', 'LLM')})"
                    patcher._inspect(texts(event.prompt), _printable(where))
                elif isinstance(event, (llm.LLMChatEndEvent, llm.LLMCompletionEndEvent)):
                    patcher._saw(texts(event.response))

        dispatcher = instrumentation.get_dispatcher()
        handler = GuardHandler()
        dispatcher.add_event_handler(handler)

        def undo() -> None:
            if handler in dispatcher.event_handlers:
                dispatcher.event_handlers.remove(handler)

        self._undo.append(undo)
        self.patched.append("llamaindex")


def _optional(name: str) -> Any:
    """The module if the program has imported it; the guard itself never imports one."""
    return sys.modules.get(name)
