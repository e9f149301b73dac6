"""Reading the studio: JSON pointers, outlines, bounded pages and search."""
