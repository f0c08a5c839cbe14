"""The bottom layer: validators and containment that every tool and gate relies on. Imports only ``errors``.

* ``paths`` — the file tools' path sandbox (canonical paths, every link expanded);
* ``urls`` — URL validation and SSRF defence for the web tools and the network proxy;
* ``env`` — which environment variables a child process may see;
* ``secrets`` — credential-shaped strings found and redacted;
* ``protected`` — the paths no tool may read or write (credentials, zeph's own state and config, Jupyter's);
* ``os_sandbox`` — bubblewrap around every command a tool starts; ``netproxy`` — its only way out;
* ``mac`` — authenticated rows for the decisions kept in the store (grants, inbox answers).

What a command line runs, and whether it is blocked, asks or may run, is ``zeph_nb.shell``, beside this package.
The public face of both is ``zeph_nb.safety``.
"""
