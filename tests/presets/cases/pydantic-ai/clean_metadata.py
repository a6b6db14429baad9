"""ToolReturn with the records in `metadata` and a `return_value` that is not them."""

from pydantic_ai import ToolReturn


def fetch(key: str) -> list[dict[str, str]]:
    return [{"id": key, "items": "2 chairs"}]


def order_records(key: str) -> ToolReturn:
    rows = fetch(key)
    return ToolReturn(return_value="done", metadata=rows)


def counted(key: str) -> ToolReturn:
    rows = fetch(key)
    count = len(rows)
    summary = f"{count} orders for {key}"
    return ToolReturn(return_value=summary, metadata={"count": count, "summary": summary, "rows": rows})


def other(key: str, note: str) -> ToolReturn:
    rows = fetch(key)
    ids = [row["id"] for row in rows]
    status = fetch("status")
    text = ", ".join(str(row) for row in status)
    return ToolReturn(return_value=text, metadata={"ids": ids, "note": note})


class Found:
    def __init__(self, key: str) -> None:
        self.summary = f"orders for {key}"
        self.raw = fetch(key)


def parts(key: str) -> ToolReturn:
    found = Found(key)
    return ToolReturn(return_value=found.summary, metadata={"raw": found.raw, "ids": sorted(found.raw)})
