"""The transcript checker (``gaple check``): a played hand's log replayed and compared with the
specification."""
