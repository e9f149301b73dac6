"""Rendering: the seal policy for drawings and what a sealed preview draws (html-will-draw);
preset rendering (render, chat_completion, text_completion, story_string, lore, macro_eval),
preset-verify (verify) and promptbook rehearsal (promptbook)."""
