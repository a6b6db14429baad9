"""A small LLM agent application, written the old way: every tool returns ``str``."""
