"""A `Router`'s messages: any text, never a whole result or an artifact (both layers: the
message is built in the call)."""

from litellm import Router

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def whole(router: Router) -> object:
    result = lookup("Oslo")
    return router.completion(model="gpt-4o", messages=[{"role": "user", "content": result}])  # expect: TW201


async def artifact(router: Router) -> object:
    result = lookup("Oslo")
    return await router.acompletion(
        model="gpt-4o",
        messages=[{"role": "user", "content": result.artifacts[0].data}],  # expect: TW302
    )
