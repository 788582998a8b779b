"""versus: a lab for cross-runtime performance experiments."""
__version__ = "0.1.0"
