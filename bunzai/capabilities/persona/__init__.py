"""Persona capabilities: identity text, structured profile, prompt injection, presentation."""
