"""Unit conversion for lengths, masses and temperatures."""

from __future__ import annotations

from agent.tools.base import Tool

# Factor to the base unit of each dimension (metre, kilogram).
_LINEAR: dict[str, tuple[str, float]] = {
    "mm": ("length", 0.001),
    "cm": ("length", 0.01),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "in": ("length", 0.0254),
    "ft": ("length", 0.3048),
    "mi": ("length", 1609.344),
    "g": ("mass", 0.001),
    "kg": ("mass", 1.0),
    "lb": ("mass", 0.45359237),
    "oz": ("mass", 0.028349523125),
}
_TEMPERATURE = {"c", "f", "k"}


def _to_kelvin(value: float, unit: str) -> float:
    if unit == "c":
        return value + 273.15
    if unit == "f":
        return (value - 32.0) * 5.0 / 9.0 + 273.15
    return value


def _from_kelvin(value: float, unit: str) -> float:
    if unit == "c":
        return value - 273.15
    if unit == "f":
        return (value - 273.15) * 9.0 / 5.0 + 32.0
    return value


class UnitConversionTool(Tool):
    name = "convert_units"
    description = "Converts 'value' from unit 'from' to unit 'to' (length, mass, temperature)."

    def execute(self, arguments: dict[str, str]) -> str:
        source = arguments.get("from", "").strip().lower()
        target = arguments.get("to", "").strip().lower()
        try:
            value = float(arguments.get("value", ""))
        except ValueError:
            return f"Error: 'value' must be a number, got {arguments.get('value', '')!r}"
        if source in _TEMPERATURE and target in _TEMPERATURE:
            converted = _from_kelvin(_to_kelvin(value, source), target)
            return f"{value:g} {source.upper()} = {converted:.2f} {target.upper()}"
        if source not in _LINEAR:
            return f"Error: unknown unit {source!r}"
        if target not in _LINEAR:
            return f"Error: unknown unit {target!r}"
        (source_dimension, source_factor) = _LINEAR[source]
        (target_dimension, target_factor) = _LINEAR[target]
        if source_dimension != target_dimension:
            return f"Error: cannot convert {source_dimension} to {target_dimension}"
        converted = value * source_factor / target_factor
        return f"{value:g} {source} = {converted:.4g} {target}"
