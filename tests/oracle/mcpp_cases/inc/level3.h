level3-only
