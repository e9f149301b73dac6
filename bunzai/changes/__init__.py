"""Drafts and the one apply door: build, compose, show, validate, apply, receipts."""
