"""sources/ and setup/ hold the throwaway projects a corpus was recorded in (bench/record.py): data, not tests."""

collect_ignore = ["sources", "setup"]
