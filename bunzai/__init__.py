"""bunzai: a studio for AI-roleplay content (cards, lorebooks, presets and more)."""

__version__ = "0.1.0"
