"""Loans, holds and fines for a public library network."""
__version__ = "0.3.0"
