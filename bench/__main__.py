"""Run every benchmark: `python -m bench` (or `make bench`). Recorded figures: bench/RESULTS.md."""

from __future__ import annotations

from bench import (
    audit_bench,
    chain_overhead_bench,
    code_search_bench,
    cold_start_bench,
    filter_bench,
    filter_speed_bench,
    gates_bench,
    grep_bench,
    hub_bench,
    import_guard_bench,
    inbox_bench,
    large_output_bench,
    longrun_bench,
    memory_bench,
    pane_watch_bench,
    policy_reload_bench,
    sandbox_bench,
    sandbox_probe_bench,
    scheduler_bench,
    secrets_bench,
    shell_cost_bench,
    shell_policy_bench,
    team_bench,
    template_bench,
    tool_filter_bench,
)

if __name__ == "__main__":
    grep_bench.main()
    filter_bench.main()
    filter_speed_bench.main()
    audit_bench.main()
    gates_bench.main()
    chain_overhead_bench.main()
    inbox_bench.main()
    sandbox_bench.main()
    sandbox_probe_bench.main()
    shell_policy_bench.main()
    shell_cost_bench.main([])
    secrets_bench.main()
    tool_filter_bench.main()
    import_guard_bench.main()
    pane_watch_bench.main()
    team_bench.main()
    hub_bench.main()
    # issue 45: cost as the work grows
    longrun_bench.main([])
    large_output_bench.main([])
    cold_start_bench.main([])
    # issue 46: long logs folded by template (the tunable corpora and speed; --heldout adds the held-apart ones)
    template_bench.main([])
    # issue 49: the native tools, and the shell policy following its file
    memory_bench.main()
    scheduler_bench.main()
    code_search_bench.main()
    policy_reload_bench.main()
