"""What a notebook front end does to an IPython kernel started with --debug: run cells (two fail), complete,
inspect, ask for input, interrupt a long cell, restart, shut down. The kernel's own log goes to kernel.log."""

import time

from jupyter_client.manager import KernelManager

def reply_to(client, msg_id):
    """The shell reply to ``msg_id``, skipping replies to earlier requests (completion, inspection, history)."""
    reply = client.get_shell_msg(timeout=30)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=30)
    return reply


CELLS = [
    "import math, statistics\nloans = [3, 5, 0, 8, 13, 2]",
    "statistics.mean(loans)",
    "[x / y for x, y in zip(loans, loans[1:])]",
    "import pandas_not_installed_here",
    "def overdue(days):\n    return [d for d in days if d > 14]\noverdue([3, 20, 15, 9])",
    "print('\\n'.join(f'tool {i}: {i * i % 7} days' for i in range(40)))",
    "name = input('member? ')\nprint('hello', name)",
    "for i in range(3):\n    print('tick', i)\n    import time; time.sleep(0.05)",
]

with open("kernel.log", "w") as log:
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(extra_arguments=["--debug"], stdout=log, stderr=log)
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    for round_ in range(7):
        for source in CELLS:
            allow = "input(" in source
            msg_id = client.execute(source, allow_stdin=allow)
            if allow:
                request = client.get_stdin_msg(timeout=10)
                client.input(f"volunteer{round_}")
            reply = reply_to(client, msg_id)
            content = reply["content"]
            print(f"cell {content.get('execution_count')}: {content['status']}"
                  + (f" {content['ename']}: {content['evalue']}" if content["status"] == "error" else ""))
        client.complete("statistics.me", 13)
        client.inspect("math.gcd", 8)
        client.history(hist_access_type="tail", n=5)
    long_cell = client.execute("import time\nfor i in range(100):\n    time.sleep(0.1)")
    time.sleep(1)
    manager.interrupt_kernel()
    reply = reply_to(client, long_cell)
    print("long cell:", reply["content"]["status"], reply["content"].get("ename"))
    manager.restart_kernel(now=False)
    client.wait_for_ready(timeout=60)
    msg_id = client.execute("loans")
    reply = reply_to(client, msg_id)
    print("after restart:", reply["content"]["status"], reply["content"].get("ename"), reply["content"].get("evalue"))
    client.stop_channels()
    manager.shutdown_kernel(now=False)
    print("kernel shut down:", not manager.is_alive())
