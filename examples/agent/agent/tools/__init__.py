"""The builtin tools."""
