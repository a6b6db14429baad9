"""A fake weather service backed by a fixed in-memory table (no network)."""

from __future__ import annotations

import json

from agent.tools.base import Tool

_OBSERVATIONS: dict[str, dict[str, object]] = {
    "berlin": {"city": "Berlin", "condition": "overcast", "temperature_c": 7, "wind_kph": 19},
    "lisbon": {"city": "Lisbon", "condition": "sunny", "temperature_c": 18, "wind_kph": 11},
    "oslo": {"city": "Oslo", "condition": "snow", "temperature_c": -4, "wind_kph": 8},
    "tokyo": {"city": "Tokyo", "condition": "light rain", "temperature_c": 12, "wind_kph": 14},
}


class WeatherTool(Tool):
    name = "weather"
    description = "Returns the current weather for 'city' as JSON."

    def execute(self, arguments: dict[str, str]) -> str:
        city = arguments.get("city", "").strip().lower()
        observation = _OBSERVATIONS.get(city)
        if observation is None:
            known = sorted(str(entry["city"]) for entry in _OBSERVATIONS.values())
            return json.dumps({"error": f"no observation for {city!r}", "known_cities": known})
        return json.dumps(observation, sort_keys=True)
