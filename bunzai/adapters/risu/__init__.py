"""RisuAI: Risu CHARX, lorebook and regex exports, `.risum` modules, `.risup` presets."""
