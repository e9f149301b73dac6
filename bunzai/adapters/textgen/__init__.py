"""text-generation-webui (oobabooga): YAML characters and the old Pygmalion JSON."""
