"""SillyTavern: cards, world info, presets, regex scripts, quick replies, personas, sprites."""
